//! The names the emitters make from spec names, checked before anything is emitted: every
//! Rust item, method, view accessor, C file-scope name and C member a spec name turns into
//! must be a usable identifier and must not be taken twice in its namespace. The emitters
//! escape what they can (`r#type` in Rust, `class_` for a C member); what they cannot
//! escape is a spec error here, at the name that loses.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde_spanned::Spanned;

use super::{Decl, FileId, Loader};
use crate::naming::{c, rust};
use crate::schema::rules::RawRule;
use crate::schema::*;

/// Rust names that cannot be escaped as raw identifiers (`r#self` is not an identifier).
const NOT_RAW: &[&str] = &["Self", "self", "crate", "super", "_"];

/// Why `name` can never be a generated Rust identifier, if it cannot.
pub(crate) fn rust_error(name: &str) -> Option<String> {
    NOT_RAW.contains(&name).then(|| {
        format!("`{name}` cannot be a Rust identifier, not even a raw one (`r#{name}`); rename it")
    })
}

/// Which generated name already holds a spelling in each namespace.
#[derive(Default)]
struct Claims {
    taken: HashMap<(String, String), String>,
    /// Names already reported: one error per spec name.
    reported: HashSet<(usize, usize)>,
}

/// One spec name, where it is written, and what it is (`field \`count\``).
struct Name<'a> {
    at: FileId,
    span: Range<usize>,
    desc: String,
    spec: &'a str,
}

impl<'a> Name<'a> {
    fn of(at: FileId, name: &'a Spanned<String>, what: &str) -> Self {
        Name {
            at,
            span: name.span(),
            desc: format!("{what} `{}`", name.get_ref()),
            spec: name.get_ref(),
        }
    }
}

impl Claims {
    fn reserve(&mut self, ns: &str, names: &[&str], by: &str) {
        for n in names {
            self.taken
                .entry((ns.to_string(), n.to_string()))
                .or_insert_with(|| by.to_string());
        }
    }

    /// Takes `generated` in `ns` for `who`, or reports that another name holds it.
    fn claim(&mut self, l: &mut Loader, ns: &str, generated: String, who: &Name) {
        let key = (ns.to_string(), generated);
        if let Some(other) = self.taken.get(&key) {
            if *other == who.desc || !self.reported.insert((who.at.0, who.span.start)) {
                return; // a duplicate (reported as such), or this name is reported already
            }
            let generated = &key.1;
            let msg = if generated == who.spec {
                format!("{} collides in {ns} with {other}; rename one", who.desc)
            } else {
                format!(
                    "{} becomes `{generated}` in {ns}, which {other} already is; rename one",
                    who.desc
                )
            };
            l.err(who.at, who.span.clone(), msg);
        } else {
            self.taken.insert(key, who.desc.clone());
        }
    }
}

const MODULE: &str = "the generated Rust module";
const C_SCOPE: &str = "the C headers";
const GENERATED: &str = "a name the generated code defines";

impl Loader {
    /// Every generated-name check over the declarations (run once all types are known).
    pub(super) fn check_names(&mut self, raws: &[(usize, RawFile)], decls: &[(FileId, Decl)]) {
        let mut claims = Claims::default();
        claims.reserve(MODULE, rust::MODULE_ITEMS, GENERATED);
        claims.reserve("`impl Arch`", rust::ARCH_ITEMS, GENERATED);
        for (fi, raw) in raws {
            let at = FileId(*fi);
            for a in &raw.arch {
                claims.claim(
                    self,
                    "`impl Arch`",
                    a.name.get_ref().clone(),
                    &Name::of(at, &a.name, "architecture"),
                );
            }
            for c in &raw.constant {
                self.uppercase(at, &c.name, "a constant's");
                claims.claim(
                    self,
                    MODULE,
                    c.name.get_ref().clone(),
                    &Name::of(at, &c.name, "constant"),
                );
            }
            for t in &raw.table {
                claims.claim(
                    self,
                    MODULE,
                    t.name.get_ref().clone(),
                    &Name::of(at, &t.name, "table"),
                );
            }
        }
        for (at, d) in decls {
            let at = *at;
            let name = d.name();
            let ty = Name::of(at, name, "type");
            claims.claim(self, MODULE, name.get_ref().clone(), &ty);
            let impl_ns = format!("`impl {}`", name.get_ref());
            claims.reserve(&impl_ns, rust::TYPE_ITEMS, GENERATED);
            let view_ns = format!("`view::{}`", name.get_ref());
            claims.reserve(&view_ns, rust::VIEW_ITEMS, GENERATED);
            let c_name = d.c_name();
            self.c_global(&mut claims, at, name, c_name, "type");
            match d {
                Decl::Enum(r) => self.enum_names(&mut claims, at, r, &impl_ns),
                Decl::Flags(r) => {
                    self.uppercase(at, &r.name, "a flag set's");
                    let prefix = c_prefix(&r.c_prefix, &r.c_name);
                    for b in &r.bits {
                        self.rule_word(at, &b.name, "flag");
                        claims.claim(self, &impl_ns, b.name.get_ref().clone(), &flag(at, b));
                        let cn = format!("{prefix}{}", b.name.get_ref());
                        self.c_global(&mut claims, at, &b.name, &cn, "flag");
                    }
                }
                Decl::Bitfield(r) => {
                    self.rule_fns(&mut claims, at, &r.c_name, &r.rule);
                    claims.claim(self, MODULE, format!("{}_mut", name.get_ref()), &ty);
                    let c_ns = format!("the C bitfield `{}`", r.c_name);
                    for b in &r.fields {
                        self.rule_word(at, &b.name, "sub-field");
                        let member = Name::of(at, &b.name, "sub-field");
                        self.view_member(&mut claims, &view_ns, &member);
                        claims.claim(self, &c_ns, c::member(b.name.get_ref()), &member);
                    }
                }
                Decl::Struct(r) => {
                    self.rule_fns(&mut claims, at, &r.c_name, &r.rule);
                    claims.claim(self, MODULE, format!("{}_mut", name.get_ref()), &ty);
                    let c_ns = format!("the C struct `{}`", r.c_name);
                    self.members(&mut claims, &view_ns, &c_ns, at, &r.field);
                    // A C name without the word's name cannot spell an alias (an error
                    // of its own, in the struct's loader).
                    let spellable = r.c_name.contains(name.get_ref().as_str());
                    for a in r.aliases.iter().filter(|_| spellable) {
                        let cn = c::word_alias(&r.c_name, name.get_ref(), a.name.get_ref());
                        self.c_global(&mut claims, at, &a.name, &cn, "alias");
                    }
                    for f in r.field.iter().filter(|f| f.codec.is_some()) {
                        let get = format!("{}_value", f.name.get_ref());
                        claims.claim(self, &impl_ns, get, &Name::of(at, &f.name, "field"));
                    }
                    for j in &r.join {
                        let join = Name::of(at, &j.name, "join");
                        claims.claim(self, &impl_ns, j.name.get_ref().clone(), &join);
                        claims.claim(self, &impl_ns, format!("set_{}", j.name.get_ref()), &join);
                    }
                    if r.opcode.is_some() {
                        let stem = r.c_name.strip_suffix("_STRUCT").unwrap_or(&r.c_name);
                        for suffix in ["OPCODE", "SIZE"] {
                            let define = format!("{stem}_{suffix}");
                            self.c_global(&mut claims, at, name, &define, "word");
                        }
                        let header = c::header_file(stem);
                        claims.claim(self, "the C header files", header, &ty);
                    }
                }
                Decl::Union(r) => self.union_names(&mut claims, at, r, &view_ns),
            }
        }
    }

    fn enum_names(&mut self, claims: &mut Claims, at: FileId, r: &RawEnum, impl_ns: &str) {
        let prefix = c_prefix(&r.c_prefix, &r.c_name);
        let mut values: HashMap<u64, &str> = HashMap::new();
        for v in &r.values {
            let e = Name::of(at, &v.name, "enumerator");
            claims.claim(self, impl_ns, v.name.get_ref().clone(), &e);
            let cn = format!("{prefix}{}", v.name.get_ref());
            self.c_global(claims, at, &v.name, &cn, "enumerator");
            for a in &v.aliases {
                let cn = format!("{prefix}{}", a.name.get_ref());
                self.c_global(claims, at, &a.name, &cn, "alias");
            }
            if let Some(first) = values.get(v.value.get_ref()) {
                let msg = format!(
                    "`{}` has the value {:#x} of `{first}`: two enumerators of `{}` cannot share \
                     a value; if it is another spelling of `{first}`, list it in `{first}`'s \
                     `aliases` (`aliases = [{{ name = \"{}\", source = \"…\" }}]`)",
                    v.name.get_ref(),
                    v.value.get_ref(),
                    r.name.get_ref(),
                    v.name.get_ref()
                );
                self.err(at, v.value.span(), msg);
            } else {
                values.insert(*v.value.get_ref(), v.name.get_ref());
            }
        }
    }

    fn union_names(&mut self, claims: &mut Claims, at: FileId, r: &RawUnion, view_ns: &str) {
        let name = r.name.get_ref();
        let ty = Name::of(at, &r.name, "union");
        for suffix in ["_mut", "_arm", "_arm_mut"] {
            claims.claim(self, MODULE, format!("{name}{suffix}"), &ty);
        }
        let disc = Name::of(at, &r.discriminator.name, "discriminator");
        self.rule_word(at, &r.discriminator.name, "discriminator");
        self.view_member(claims, view_ns, &disc);
        for v in &r.variant {
            self.rule_word(at, &v.name, "arm");
            let arm = Name::of(at, &v.name, "arm");
            claims.claim(
                self,
                &format!("`impl {name}`"),
                v.name.get_ref().clone(),
                &arm,
            );
            let arm_type = format!("{name}_{}", v.name.get_ref());
            claims.claim(self, MODULE, arm_type.clone(), &arm);
            claims.claim(self, MODULE, format!("{arm_type}_mut"), &arm);
            let vn = v.name.get_ref();
            claims.claim(self, view_ns, format!("as_{vn}"), &arm);
            claims.claim(self, view_ns, format!("as_{vn}_mut"), &arm);
            let c_arm = format!("{}_{vn}", r.c_name);
            self.c_global(claims, at, &v.name, &c_arm, "arm");
            let arm_view = format!("`view::{arm_type}`");
            claims.reserve(&arm_view, rust::VIEW_ITEMS, GENERATED);
            let impl_arm = format!("`impl {arm_type}`");
            claims.reserve(&impl_arm, rust::TYPE_ITEMS, GENERATED);
            let c_ns = format!("the C struct `{c_arm}`");
            self.view_member(claims, &arm_view, &disc);
            claims.claim(
                self,
                &c_ns,
                c::member(r.discriminator.name.get_ref()),
                &disc,
            );
            self.members(claims, &arm_view, &c_ns, at, &v.field);
        }
    }

    /// The C functions and bit `#define`s of a type's rules (`S_<id>`, `S_RULE_<id>`), next
    /// to the three every rule set has.
    fn rule_fns(&mut self, claims: &mut Claims, at: FileId, c_name: &str, rules: &[RawRule]) {
        if rules.is_empty() {
            return;
        }
        let stem = c_name.strip_suffix("_STRUCT").unwrap_or(c_name);
        let fixed = ["rule_truth", "violations", "is_valid"].map(|f| format!("{stem}_{f}"));
        claims.reserve(C_SCOPE, &fixed.each_ref().map(String::as_str), GENERATED);
        for r in rules {
            let id = r.id.as_ref().unwrap_or(&r.name);
            let rule = Name::of(at, id, "rule");
            claims.claim(self, C_SCOPE, format!("{stem}_{}", id.get_ref()), &rule);
            claims.claim(
                self,
                C_SCOPE,
                format!("{stem}_RULE_{}", id.get_ref()),
                &rule,
            );
        }
    }

    /// The view accessors and C members of byte-placed fields.
    fn members(
        &mut self,
        claims: &mut Claims,
        view_ns: &str,
        c_ns: &str,
        at: FileId,
        fs: &[RawField],
    ) {
        for f in fs {
            self.rule_word(at, &f.name, "field");
            let member = Name::of(at, &f.name, "field");
            self.view_member(claims, view_ns, &member);
            claims.claim(self, c_ns, c::member(f.name.get_ref()), &member);
        }
    }

    /// A member a rule may name (`what`: field, sub-field, arm, …) cannot be a word rule
    /// expressions reserve: rules could not read it, or it would hide the generation.
    fn rule_word(&mut self, at: FileId, name: &Spanned<String>, what: &str) {
        let n = name.get_ref().as_str();
        let why = match n {
            "in" => {
                "`in` is the list test of rule expressions (`x in [a, b]`), so no rule \
                     could read it"
            }
            "true" | "false" => "it is a literal of rule expressions, so no rule could read it",
            "nc" => {
                "`nc` is the NeuronCore generation in rule expressions, which a member of \
                     this name would hide from its struct's rules"
            }
            _ => return,
        };
        let message = format!(
            "{what} `{n}`: {why}; rename it (the source's spelling can stay in an evidence \
             record's `name`)"
        );
        self.err(at, name.span(), message);
    }

    /// A field's accessor, setter and `_mut` accessor on its view.
    fn view_member(&mut self, claims: &mut Claims, view_ns: &str, member: &Name) {
        // A name that is no identifier is reported already and has no methods to build.
        if ident_error(member.spec).is_some() {
            return;
        }
        for generated in rust::view_methods(member.spec) {
            claims.claim(self, view_ns, generated, member);
        }
    }

    /// A file-scope C name: a valid identifier, not a keyword or standard name, not taken.
    fn c_global(
        &mut self,
        claims: &mut Claims,
        at: FileId,
        name: &Spanned<String>,
        c: &str,
        what: &str,
    ) {
        let who = Name {
            at,
            span: name.span(),
            desc: format!("{what} `{}`", name.get_ref()),
            spec: name.get_ref(),
        };
        if let Some(e) = ident_error(c) {
            self.err(at, name.span(), format!("the C name of {}: {e}", who.desc));
        } else if c::reserved(c) {
            self.err(
                at,
                name.span(),
                format!(
                    "the C name `{c}` of {what} `{}` is a C or C++ keyword or standard name; \
                     choose another C name",
                    name.get_ref()
                ),
            );
        } else {
            claims.claim(self, C_SCOPE, c.to_string(), &who);
        }
    }

    /// Flag sets are tuple structs and constants are `const`s: a lowercase name would shadow
    /// the generated code's variables (`let b = …` cannot bind over a constant `b`).
    pub(super) fn uppercase(&mut self, at: FileId, name: &Spanned<String>, what: &str) {
        if !name.get_ref().chars().any(|c| c.is_ascii_uppercase()) {
            self.err(
                at,
                name.span(),
                format!(
                    "{what} name needs an uppercase letter (`{}`): a lowercase one would shadow \
                     variables of the generated code",
                    name.get_ref().to_ascii_uppercase()
                ),
            );
        }
    }
}

fn flag(at: FileId, b: &RawFlagBit) -> Name<'_> {
    Name::of(at, &b.name, "flag")
}

pub(super) fn c_prefix(prefix: &Option<String>, c_name: &str) -> String {
    prefix.clone().unwrap_or_else(|| format!("{c_name}_"))
}

pub(super) fn check_ident(l: &mut Loader, at: FileId, name: &Spanned<String>) {
    if let Some(msg) = ident_error(name.get_ref()) {
        l.err(at, name.span(), msg);
    }
}

/// Why `s` is not a valid identifier (letters, digits, `_`; not starting with a digit).
pub(super) fn ident_error(s: &str) -> Option<String> {
    let ok = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Some(format!(
            "`{s}` is not a valid identifier (letters, digits, `_`)"
        ));
    }
    rust_error(s)
}
