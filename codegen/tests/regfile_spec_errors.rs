//! The loader's checks on `[[regfile]]`: each bad register file is reported at the value
//! at fault with what to do (every error of an edit at once), and per-generation layouts
//! (same names, disjoint `arch`) load as two declarations.

use dmaspec_testkit::spec::Fixture;

/// Two architectures (`a1`, `a2`) and a 2-bit enum for fields to name.
const SPEC: Fixture = Fixture::new(
    r#"[[arch]]
name = "a1"
nc = 1
doc = "First."

[[arch]]
name = "a2"
nc = 2
doc = "Second."

[[enum]]
name = "MODE"
c_name = "MODE"
repr = "u8"
doc = "Modes."
confidence = "HIGH"
evidence = [{ source = "src" }]
values = [{ name = "OFF", value = 0 }, { name = "ON", value = 3 }]
"#,
);

/// A file with an array bundle, a register with two layouts of `qos` (a1: 30:28, a2:
/// 31:28), a reset that agrees with its fields, and a WO register.
const VALID: &str = r#"[[regfile]]
name = "RF"
doc = "A register file."
size = 0x3000
bus_width = 32
confidence = "HIGH"
evidence = [{ source = "src", names = "the file" }]

[[regfile.bundle]]
name = "Q"
offset = 0x1000
size = 0x100
count = 2
stride = 0x1000

[[regfile.bundle.register]]
name = "cfg"
offset = 0x20
access = "RW"
reset = 0x70000003
evidence = [{ source = "src", names = "the cfg row" }]

[[regfile.bundle.register.field]]
name = "mode"
bits = "1:0"
reset = 0x3
enum = "MODE"

[[regfile.bundle.register.field]]
name = "qos"
bits = "30:28"
reset = 0x7
arch = ["a1"]

[[regfile.bundle.register.field]]
name = "qos"
bits = "31:28"
arch = ["a2"]

[[regfile.bundle.register]]
name = "kick"
offset = 0x38
access = "WO"
evidence = [{ source = "src", names = "the kick row" }]

[[regfile.bundle.register.field]]
name = "val"
bits = "23:0"
"#;

fn edited(from: &str, to: &str) -> String {
    assert!(VALID.contains(from), "{from:?} in VALID");
    VALID.replacen(from, to, 1)
}

#[test]
fn a_valid_register_file_loads_with_its_generations() {
    let m = SPEC.load(VALID).expect("valid");
    let f = &m.regfiles[0];
    assert_eq!((f.name.as_str(), f.size, f.archs.len()), ("RF", 0x3000, 2));
    let q = &f.bundles[0];
    assert_eq!((q.offset, q.count, q.stride), (0x1000, 2, 0x1000));
    let cfg = &q.registers[0];
    assert_eq!(cfg.reset, Some(0x7000_0003));
    let a1 = f.view("a1");
    let qos1 = a1.bundles[0].registers[0]
        .fields
        .iter()
        .find(|x| x.name == "qos")
        .unwrap();
    assert_eq!((qos1.lsb, qos1.width, qos1.mask()), (28, 3, 0x7000_0000));
    let a2 = f.view("a2");
    let qos2 = a2.bundles[0].registers[0]
        .fields
        .iter()
        .find(|x| x.name == "qos")
        .unwrap();
    assert_eq!((qos2.lsb, qos2.width, qos2.mask()), (28, 4, 0xf000_0000));
    // The field inherits the register's access and the file's confidence.
    let val = &q.registers[1].fields[0];
    assert_eq!(val.access.as_str(), "WO");
    assert_eq!(val.confidence.tag, "HIGH");
    assert_eq!(
        f.view("a1").bundles[0].registers[1].unknown_mask(),
        0xff00_0000
    );
    assert!(!f.arch_invariant());
}

#[test]
fn a_register_file_has_only_its_own_keys() {
    SPEC.only(
        &edited("bus_width = 32", "bus_width = 32\nbuswidth = 32"),
        "",
        "buswidth",
        "unknown field `buswidth`; did you mean `bus_width`?",
    );
}

#[test]
fn bundles_lie_inside_the_file() {
    SPEC.only(
        &edited("count = 2", "count = 3"),
        "[[regfile.bundle]]\nname = \"Q\"\noffset = ",
        "0x1000",
        "bundle `Q` (3 × 0x100 bytes at 0x1000, stride 0x1000) ends past the 0x3000-byte \
         register file `RF`: fix its offset, size, count or stride, or the file's size",
    );
    SPEC.only(
        &edited("stride = 0x1000", "stride = 0x80"),
        "stride = ",
        "0x80",
        "bundle `Q`'s stride 0x80 is less than its size 0x100: its elements would overlap",
    );
    SPEC.only(
        &edited("stride = 0x1000\n", ""),
        "[[regfile.bundle]]\nname = ",
        "\"Q\"",
        "bundle `Q` is an array of 2 with no `stride`: add the distance between its elements",
    );
}

#[test]
fn registers_lie_inside_their_bundle_and_do_not_overlap() {
    SPEC.only(
        &edited("offset = 0x38", "offset = 0x100"),
        "name = \"kick\"\noffset = ",
        "0x100",
        "register `kick` (4 bytes at 0x100) ends past the 0x100-byte bundle `Q`: fix its \
         offset, or the bundle's size",
    );
    SPEC.only(
        &edited("offset = 0x38", "offset = 0x26"),
        "name = \"kick\"\noffset = ",
        "0x26",
        "register `kick` at 0x26 is not aligned to its 4 bytes",
    );
    SPEC.only(
        &edited("offset = 0x38", "offset = 0x20"),
        "name = \"kick\"\noffset = ",
        "0x20",
        "register `kick` (bytes 0x20..0x24) overlaps `cfg` (bytes 0x20..0x24) in bundle `Q`",
    );
}

#[test]
fn fields_lie_inside_their_register_and_do_not_overlap() {
    SPEC.only(
        &edited("bits = \"23:0\"", "bits = \"32:0\""),
        "name = \"val\"\nbits = ",
        "\"32:0\"",
        "field `val` of register `kick` (bits 32:0) is outside the 32-bit register",
    );
    SPEC.among(
        &edited("bits = \"1:0\"", "bits = \"29:28\""),
        "name = \"qos\"\nbits = ",
        "\"30:28\"",
        "field `qos` (bits 30:28) overlaps `mode` (bits 29:28) in register `cfg` on a1",
    );
    SPEC.only(
        &edited("bits = \"23:0\"", "bits = \"0:23\""),
        "name = \"val\"\nbits = ",
        "\"0:23\"",
        "`0:23` is not a bit range: write `\"hi:lo\"` (MSB first, as CSR tables do) or \
         `\"n\"`; did you mean `23:0`?",
    );
}

#[test]
fn resets_fit_and_agree() {
    SPEC.only(
        &edited("reset = 0x3\n", "reset = 0x4\n"),
        "name = \"mode\"\nbits = \"1:0\"\nreset = ",
        "0x4",
        "field `mode` of register `cfg`'s reset 0x4 does not fit in 2 bits",
    );
    SPEC.only(
        &edited("reset = 0x7\n", "reset = 0x6\n"),
        "bits = \"30:28\"\nreset = ",
        "0x6",
        "field `qos` of register `cfg` resets to 0x6 but the register's reset 0x70000003 holds \
         0x7 in bits 30:28: one of them is wrong (or record the disagreement as a conflict and \
         keep the stronger source's)",
    );
}

#[test]
fn a_field_allows_no_more_than_its_register() {
    SPEC.only(
        &edited("bits = \"23:0\"", "bits = \"23:0\"\naccess = \"RW\""),
        "bits = \"23:0\"\naccess = ",
        "\"RW\"",
        "field `val` of register `kick` is RW but its register is WO: a field cannot allow \
         what its register does not",
    );
    SPEC.only(
        &edited("access = \"WO\"", "access = \"W1C\""),
        "access = ",
        "\"W1C\"",
        "unknown access `W1C`: write `RW`, `RO` or `WO`",
    );
    // Right but for case: the suggestion is the same letters, not the nearest other.
    SPEC.only(
        &edited("access = \"WO\"", "access = \"rw\""),
        "access = ",
        "\"rw\"",
        "unknown access `rw`: write `RW`, `RO` or `WO`; did you mean `RW`?",
    );
}

#[test]
fn a_name_is_declared_once_per_generation() {
    let bad = edited(
        "name = \"qos\"\nbits = \"31:28\"\narch = [\"a2\"]",
        "name = \"qos\"\nbits = \"31:28\"\narch = [\"a1\", \"a2\"]",
    );
    SPEC.duplicate(
        &bad,
        "reset = 0x7\narch = [\"a1\"]\n\n[[regfile.bundle.register.field]]\nname = ",
        "\"qos\"",
        "duplicate field `qos` in register `cfg` on a1: a second layout of it needs an `arch` \
         list disjoint from the first's",
        "name = \"cfg\"",
    );
}

#[test]
fn an_enum_field_names_an_enum_that_fits() {
    // The 1-bit field's reset 0x3 no longer fits either; both are reported.
    SPEC.among(
        &edited("bits = \"1:0\"", "bits = \"0\""),
        "enum = ",
        "\"MODE\"",
        "enum `MODE` has `ON` = 0x3, which does not fit the 1-bit field",
    );
}

#[test]
fn item_names_leave_room_for_the_generated_rust() {
    SPEC.only(
        &edited("name = \"Q\"", "name = \"Block\""),
        "[[regfile.bundle]]\nname = ",
        "\"Block\"",
        "bundle `Block` collides with `Block` of the generated Rust (its module and accessor \
         sit next to it); rename the bundle",
    );
    SPEC.only(
        &edited("name = \"Q\"", "name = \"a2\""),
        "[[regfile.bundle]]\nname = ",
        "\"a2\"",
        "bundle `a2` collides with the architecture `a2` of register file `RF`: both are \
         modules of its generated Rust; rename the bundle",
    );
    SPEC.only(
        &edited("name = \"kick\"", "name = \"base\""),
        "[[regfile.bundle.register]]\nname = \"cfg\"",
        "\"base\"",
        "register `base` collides with `base` of the generated Rust (its type and accessor \
         sit next to it); rename the register",
    );
    // `cfg` has two layouts (qos), so its types are `cfg_a1` and `cfg_a2`.
    SPEC.only(
        &edited("name = \"kick\"", "name = \"cfg_a2\""),
        "[[regfile.bundle.register]]\nname = \"cfg\"",
        "\"cfg_a2\"",
        "register `cfg_a2` collides with the generated type of a layout of register `cfg` \
         (one per architecture); rename one",
    );
    SPEC.only(
        &edited("name = \"val\"", "name = \"RESET\""),
        "name = ",
        "\"RESET\"",
        "field `RESET` collides with `RESET` of its register's generated Rust type; rename \
         the field",
    );
    SPEC.only(
        &edited("name = \"mode\"", "name = \"with_qos\""),
        "name = ",
        "\"with_qos\"",
        "field `with_qos` collides with the setter of field `qos` in the generated Rust; \
         rename one",
    );
    SPEC.only(
        &edited("name = \"val\"", "name = \"self\""),
        "name = ",
        "\"self\"",
        "`self` cannot be a Rust identifier, not even a raw one (`r#self`); rename it",
    );
}

#[test]
fn no_two_items_become_one_c_name() {
    SPEC.only(
        &edited(
            "name = \"val\"\nbits = \"23:0\"",
            "name = \"val\"\nbits = \"23:0\"\n\n[[regfile.bundle.register.field]]\nname = \"VAL\"\nbits = \"24\"",
        ),
        "[[regfile]]\nname = ",
        "\"RF\"",
        "field `val` of register `kick` and field `VAL` of register `kick` of register file \
         `RF` both become the C name `RF_A1_Q_KICK_VAL_bp` (C names are the spec names joined \
         by `_`, in upper or lower case); rename one",
    );
}

/// Found by the spec_loader fuzz target's tree mode: the overlap checks listed every
/// element of an array bundle (a count of 2^64 - 1 is a capacity overflow) and added
/// offsets unchecked (an overflow near `u64::MAX`). Each is one error now, no panic.
#[test]
fn extreme_counts_and_offsets_are_errors_not_panics() {
    SPEC.only(
        &edited("count = 2", "count = 0xffffffffffffffff"),
        "[[regfile.bundle]]\nname = \"Q\"\noffset = ",
        "0x1000",
        "bundle `Q` (18446744073709551615 × 0x100 bytes at 0x1000, stride 0x1000) ends past \
         the 0x3000-byte register file `RF`: fix its offset, size, count or stride, or the \
         file's size",
    );
    SPEC.only(
        &edited("offset = 0x1000", "offset = 0xfffffffffffffff0"),
        "[[regfile.bundle]]\nname = \"Q\"\noffset = ",
        "0xfffffffffffffff0",
        "bundle `Q` (2 × 0x100 bytes at 0xfffffffffffffff0, stride 0x1000) ends past the \
         0x3000-byte register file `RF`: fix its offset, size, count or stride, or the \
         file's size",
    );
    SPEC.only(
        &edited("offset = 0x38", "offset = 0xfffffffffffffffc"),
        "name = \"kick\"\noffset = ",
        "0xfffffffffffffffc",
        "register `kick` (4 bytes at 0xfffffffffffffffc) ends past the 0x100-byte bundle `Q`: \
         fix its offset, or the bundle's size",
    );
    // A huge array that fits a huge window is checked against its neighbours without
    // listing its elements: the second array interleaves with the first.
    let huge = VALID
        .replacen("size = 0x3000", "size = 0x100000000000", 1)
        .replacen("count = 2", "count = 0x10000000", 1)
        + "\n[[regfile.bundle]]\nname = \"R\"\noffset = 0x1100\nsize = 0x100\ncount = 0x10000000\nstride = 0x1000\n"
        + "\n[[regfile.bundle]]\nname = \"S\"\noffset = 0x7ffff0000\nsize = 0x100\n";
    SPEC.only(
        &huge,
        "name = \"S\"\noffset = ",
        "0x7ffff0000",
        "bundle `S` (bytes 0x7ffff0000..0x7ffff0100) overlaps `Q` (bytes 0x7ffff0000..0x7ffff0100) \
         in register file `RF`",
    );
}

#[test]
fn a_special_access_is_a_known_side_effect_of_a_writable_register() {
    use dmaspec_codegen::model::registers::SideEffect;
    let pulsed = edited(
        "access = \"WO\"",
        "access = \"WO\"\nspecial_access = \"PulseOnW\"",
    );
    let m = SPEC.load(&pulsed).expect("valid");
    let kick = &m.regfiles[0].bundles[0].registers[1];
    assert_eq!(kick.special_access, Some(SideEffect::PulseOnW));
    assert_eq!(kick.access_label(), "WO, PulseOnW");
    SPEC.only(
        &edited(
            "access = \"WO\"",
            "access = \"WO\"\nspecial_access = \"PulseOnWrite\"",
        ),
        "special_access = ",
        "\"PulseOnWrite\"",
        "unknown special access `PulseOnWrite`: write `PulseOnW` (a write also pulses), or \
         leave it out when the source says None; did you mean `PulseOnW`?",
    );
    SPEC.only(
        &edited(
            "access = \"WO\"",
            "access = \"RO\"\nspecial_access = \"PulseOnW\"",
        ),
        "special_access = ",
        "\"PulseOnW\"",
        "register `kick` is read-only: a pulse on write needs a writable register",
    );
}
