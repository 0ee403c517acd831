//! What a downstream crate gets when its build.rs calls `dmaspec_codegen::Builder` with
//! the default runtime path (`::dmaspec::runtime`): build.rs renders our spec that way into
//! OUT_DIR/downstream.rs, and this test compiles and uses it as an outside crate would.

#[allow(non_camel_case_types, dead_code, clippy::all)]
mod downstream {
    include!(concat!(env!("OUT_DIR"), "/downstream.rs"));
}

#[test]
fn downstream_generated_code_decodes_and_encodes() {
    // DMA_DIRECT2D (seed-004 §2): opcode 0xb8 at byte 0, in_dtype FP16 (7) at byte 62.
    let mut b = [0u8; 64];
    b[0] = 0xb8;
    b[62] = 7;
    let w = downstream::DMA_DIRECT2D::decode(&b).unwrap();
    assert_eq!(w.in_dtype, downstream::DTYPE::FP16);
    assert_eq!(w.encode(), b);
    // The downstream types are distinct from dmaspec's own, but decode the same bytes.
    assert_eq!(
        dmaspec::words::DMA_DIRECT2D::decode(&b).unwrap().encode(),
        b
    );
}
