//! Bring up M2S queue 3 of a UDMA engine and ring its doorbell, against an in-memory bus
//! (a simulator's model of the register window; a driver passes a volatile-MMIO bus).
//! The steps are the CSR page's bring-up: both ring bases, the ring length, completion
//! writeback, then prefetch and scheduling; then `TDRTP_inc` += N is the doorbell.

use dmaspec::words::regs::UDMA_M2S::cayman::{Block, M2S_Q, SIZE};
use dmaspec::words::regs::{MemoryBus, Register};

fn main() {
    let mut window = vec![0u8; SIZE as usize];
    let mut m2s = Block::new(MemoryBus::new(&mut window), 0);

    let (ring, completions, ring_len, n) = (0x8_0000_1000u64, 0x8_0000_9000u64, 256u32, 4u32);
    let mut q = m2s.M2S_Q(3).expect("queue 3 of 16");
    // TDRBP_low holds addr[31:6]: the ring base is 64-byte aligned.
    q.TDRBP_low()
        .write(M2S_Q::TDRBP_low::default().with_addr(ring as u32 >> 6));
    q.TDRBP_high()
        .write(M2S_Q::TDRBP_high::default().with_addr((ring >> 32) as u32));
    q.TDRL()
        .write(M2S_Q::TDRL::default().with_descriptor_offset(ring_len));
    q.TCRBP_low()
        .write(M2S_Q::TCRBP_low::default().with_addr(completions as u32 >> 6));
    q.TCRBP_high()
        .write(M2S_Q::TCRBP_high::default().with_addr((completions >> 32) as u32));
    q.comp_cfg().modify(|c| c.with_en_comp_ring_update(true));
    q.cfg()
        .modify(|c| c.with_en_pref(true).with_en_scheduling(true));
    // The doorbell: N descriptors are in the ring.
    q.TDRTP_inc().write(M2S_Q::TDRTP_inc::default().with_val(n));

    // M2S_Q[3].TDRTP_inc is at 0x1000 + 3·0x1000 + 0x38.
    let doorbell = 0x1000 + 3 * 0x1000 + M2S_Q::TDRTP_inc::OFFSET as usize;
    assert_eq!(doorbell, 0x4038);
    assert_eq!(window[doorbell..doorbell + 4], n.to_le_bytes());
    println!("doorbell at {doorbell:#x} rang with {n} descriptors");
}
