//! How spec names are spelled in the outputs: the names the generated Rust and C define
//! themselves and the escapes they apply. The emitters spell with these; the loader checks
//! spec names against them before anything is emitted.

/// `1 byte`, `2 bytes`: a count and its noun, in every output.
pub fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// Names in the generated C headers.
pub mod c {
    /// The header of the word whose C name (without `_STRUCT`) is `stem`.
    pub fn header_file(stem: &str) -> String {
        let s = stem.strip_prefix("NEURON_ISA_TPB_").unwrap_or(stem);
        format!("aws_neuron_isa_tpb_{}.h", s.to_ascii_lowercase())
    }

    /// The C name of word `name`'s alias `alias`: the word's C name `c_name` with the alias
    /// for the name (`NEURON_ISA_TPB_<alias>_STRUCT`).
    pub fn word_alias(c_name: &str, name: &str, alias: &str) -> String {
        c_name.replacen(name, alias, 1)
    }

    /// A spec name as a C/C++ member name: itself, or with a trailing `_` if it is a keyword
    /// or standard name of either language ([`reserved`]).
    pub fn member(name: &str) -> String {
        if reserved(name) {
            format!("{name}_")
        } else {
            name.to_string()
        }
    }

    /// A C or C++ keyword, or a name the headers' standard includes (`<stddef.h>`,
    /// `<stdint.h>`, `<stdbool.h>`) or the C++ standard library define: no generated name may
    /// be one. File-scope names are checked by the loader; members are escaped by [`member`].
    pub fn reserved(name: &str) -> bool {
        KEYWORDS.binary_search(&name).is_ok()
            || STD_NAMES.binary_search(&name).is_ok()
            || name.starts_with("__")
            || name.starts_with('_') && name[1..].starts_with(|c: char| c.is_ascii_uppercase())
    }

    /// Types, macros and names of the standard headers the generated ones include, sorted.
    const STD_NAMES: &[&str] = &[
        "EOF",
        "INT16_C",
        "INT16_MAX",
        "INT16_MIN",
        "INT32_C",
        "INT32_MAX",
        "INT32_MIN",
        "INT64_C",
        "INT64_MAX",
        "INT64_MIN",
        "INT8_C",
        "INT8_MAX",
        "INT8_MIN",
        "INTMAX_C",
        "INTMAX_MAX",
        "INTMAX_MIN",
        "INTPTR_MAX",
        "INTPTR_MIN",
        "NULL",
        "PTRDIFF_MAX",
        "PTRDIFF_MIN",
        "SIG_ATOMIC_MAX",
        "SIG_ATOMIC_MIN",
        "SIZE_MAX",
        "UINT16_C",
        "UINT16_MAX",
        "UINT32_C",
        "UINT32_MAX",
        "UINT64_C",
        "UINT64_MAX",
        "UINT8_C",
        "UINT8_MAX",
        "UINTMAX_C",
        "UINTMAX_MAX",
        "UINTPTR_MAX",
        "WCHAR_MAX",
        "WCHAR_MIN",
        "WINT_MAX",
        "WINT_MIN",
        "assert",
        "errno",
        "int16_t",
        "int32_t",
        "int64_t",
        "int8_t",
        "int_fast16_t",
        "int_fast32_t",
        "int_fast64_t",
        "int_fast8_t",
        "int_least16_t",
        "int_least32_t",
        "int_least64_t",
        "int_least8_t",
        "intmax_t",
        "intptr_t",
        "main",
        "max_align_t",
        "nullptr_t",
        "offsetof",
        "ptrdiff_t",
        "size_t",
        "std",
        "uint16_t",
        "uint32_t",
        "uint64_t",
        "uint8_t",
        "uint_fast16_t",
        "uint_fast32_t",
        "uint_fast64_t",
        "uint_fast8_t",
        "uint_least16_t",
        "uint_least32_t",
        "uint_least64_t",
        "uint_least8_t",
        "uintmax_t",
        "uintptr_t",
        "wint_t",
    ];

    /// C11 and C++17/20 keywords and alternative tokens, sorted (for `binary_search`).
    const KEYWORDS: &[&str] = &[
        "_Alignas",
        "_Alignof",
        "_Atomic",
        "_Bool",
        "_Complex",
        "_Generic",
        "_Imaginary",
        "_Noreturn",
        "_Static_assert",
        "_Thread_local",
        "alignas",
        "alignof",
        "and",
        "and_eq",
        "asm",
        "auto",
        "bitand",
        "bitor",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char16_t",
        "char32_t",
        "char8_t",
        "class",
        "co_await",
        "co_return",
        "co_yield",
        "compl",
        "concept",
        "const",
        "const_cast",
        "consteval",
        "constexpr",
        "constinit",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "not",
        "not_eq",
        "nullptr",
        "operator",
        "or",
        "or_eq",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "requires",
        "restrict",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
        "xor",
        "xor_eq",
    ];

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn keywords_sorted() {
            assert!(KEYWORDS.windows(2).all(|w| w[0] < w[1]));
            assert!(STD_NAMES.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(member("default"), "default_");
            assert_eq!(member("uint8_t"), "uint8_t_");
            assert_eq!(member("_Foo"), "_Foo_");
            assert_eq!(member("flags"), "flags");
        }
    }
}

/// Names in the generated Rust module.
pub mod rust {
    /// Rust's keywords (2024 edition, reserved ones included): names the generated Rust
    /// spells as raw identifiers (`r#type`); the spec and its rules spell them plainly.
    pub(crate) const KEYWORDS: &[&str] = &[
        "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do",
        "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in",
        "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
        "return", "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe",
        "unsized", "use", "virtual", "where", "while", "yield",
    ];

    /// Items of the generated module that are not spec names, and the prelude and primitive
    /// names a spec type would shadow: no spec type, arm, constant or table may take one.
    pub(crate) const MODULE_ITEMS: &[&str] = &[
        "Arch",
        "Clone",
        "Copy",
        "Debug",
        "DecodeError",
        "Default",
        "Eq",
        "Err",
        "From",
        "Hash",
        "Into",
        "Iterator",
        "LOWERINGS",
        "None",
        "Ok",
        "Option",
        "Ord",
        "PartialEq",
        "PartialOrd",
        "Result",
        "Send",
        "Sized",
        "Some",
        "Sync",
        "TABLES",
        "WORDS",
        "Word",
        "WordMeta",
        "Word_mut",
        "alloc",
        "at",
        "at_mut",
        "bool",
        "char",
        "check_rules_by_name",
        "confidence",
        "core",
        "enumerators",
        "evidence",
        "f32",
        "f64",
        "flag_bits",
        "i128",
        "isize",
        "klr",
        "lowering",
        "meta",
        "rules",
        "std",
        "str",
        "text",
        "u128",
        "usize",
        "view",
        "visit",
    ];

    /// Associated items the generated types define: no
    /// enumerator, flag, union arm, join or `_value` getter may take one.
    pub(crate) const TYPE_ITEMS: &[&str] = &[
        "ARMS",
        "BITS",
        "DISCRIMINATOR",
        "ENUMERATORS",
        "FIELDS",
        "JOINS",
        "META",
        "NAME",
        "OPCODE",
        "RULES",
        "SIZE",
        "TEMPLATE",
        "VARIANTS",
        "check",
        "check_rules",
        "constant_mismatches",
        "contains",
        "decode",
        "encode",
        "from_raw",
        "in_arch",
        "name",
        "name_in",
        "new",
        "raw",
        "read",
        "rule_truth",
        "rules",
        "validate",
        "value",
        "variant",
        "view",
        "view_mut",
        "visit",
        "visit_fields",
        "write",
    ];

    /// What `Arch` defines besides its variants.
    /// (`arch` too: a variant of that name would clash with the generated `arch` bindings.)
    pub(crate) const ARCH_ITEMS: &[&str] = &["ALL", "arch", "from_name", "name", "nc"];

    /// Method names the views define themselves; a field with one of these names gets a
    /// `field_` prefix on its accessors.
    pub(crate) const VIEW_ITEMS: &[&str] = &[
        "new", "bytes", "bits", "set_bits", "read", "write", "as_view", "arm", "arm_mut", "decode",
        "check", "validate", "rules",
    ];

    /// The name of a view's accessor for a field named `name` (before raw-identifier
    /// escaping): `field_` + the name where a view method has it.
    pub(crate) fn view_accessor(name: &str) -> String {
        if VIEW_ITEMS.contains(&name) {
            format!("field_{name}")
        } else {
            name.to_string()
        }
    }

    /// The accessor, setter and `_mut` accessor a field named `name` gets on its view.
    pub(crate) fn view_methods(name: &str) -> [String; 3] {
        let a = view_accessor(name);
        [a.clone(), format!("set_{a}"), format!("{a}_mut")]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_byte_two_bytes() {
        assert_eq!(super::plural(1, "byte"), "1 byte");
        assert_eq!(super::plural(2, "byte"), "2 bytes");
    }
}
