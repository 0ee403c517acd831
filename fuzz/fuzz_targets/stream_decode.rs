//! Any byte string through the stream decoders, in every architecture: nothing panics, the
//! owned decoder and the zero-copy views agree word for word, and every decoded word
//! encodes back to its bytes (through the owned encoder and through the writable view).
//! The same properties run bounded in CI as proptests (tests/views.rs, tests/roundtrip.rs).
#![no_main]

use dmaspec::Arch;
use dmaspec::runtime::meta::FieldMeta;
use dmaspec::runtime::visit::{Group, Value, Visitor};
use dmaspec::stream::{self, Decoded};
use dmaspec::views::{self, Viewed};
use dmaspec::words::view;
use libfuzzer_sys::fuzz_target;

/// Counts what a walk reports, touching every value.
struct Walk(usize);

impl Visitor for Walk {
    fn enter(&mut self, _: &'static FieldMeta, offset: usize, _: Group) {
        assert!(offset < 64);
        self.0 += 1;
    }
    fn leave(&mut self, _: Group) {
        self.0 += 1;
    }
    fn value(&mut self, _: &'static FieldMeta, offset: usize, value: Value<'_>) {
        assert!(offset < 64);
        self.0 += value.flag_names().count() + 1;
    }
}

fuzz_target!(|data: &[u8]| {
    for &arch in Arch::ALL {
        let owned: Vec<(usize, Decoded)> = stream::words(data, arch).collect();
        let viewed: Vec<(usize, Viewed)> = views::words(data, arch).collect();
        assert_eq!(owned.len(), data.len() / 64);
        assert_eq!(viewed.len(), owned.len());
        for ((off, o), (voff, v)) in owned.iter().zip(&viewed) {
            assert_eq!(off, voff);
            let bytes: &[u8; 64] = data[*off..*off + 64].try_into().unwrap();
            match (o, v) {
                (
                    Decoded::Word { word, extends },
                    Viewed::Word {
                        word: vw,
                        extends: ve,
                    },
                ) => {
                    assert_eq!(extends, ve);
                    assert_eq!(&vw.read(), word);
                    assert_eq!(&word.encode(), bytes);
                    let mut copy = [0u8; 64];
                    copy[0] = bytes[0];
                    let mut w = view::Word_mut::new(&mut copy, arch).expect("same opcode");
                    w.write(word).expect("same kind");
                    assert_eq!(&copy, bytes);
                    let mut walk = Walk(0);
                    word.visit(&mut walk, arch);
                    assert!(walk.0 > 0);
                }
                (Decoded::UnknownOpcode, Viewed::UnknownOpcode(b)) => assert_eq!(*b, bytes),
                (
                    Decoded::Orphan { name, follows },
                    Viewed::Orphan {
                        name: vn,
                        follows: vf,
                        ..
                    },
                ) => assert_eq!((name, follows), (vn, vf)),
                (o, v) => panic!("decoder says {o:?}, views say {v:?}"),
            }
        }
        assert_eq!(
            stream::trailing_partial(data.len()),
            (data.len() % 64 != 0).then_some(data.len() - data.len() % 64)
        );
    }
});
