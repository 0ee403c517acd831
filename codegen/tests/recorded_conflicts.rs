//! Issue 13 §5: each of the nine conflicts the sources disagree on is in the spec with both
//! readings and both sources, so conflicts.md and dmaspec.json list it.

use dmaspec_codegen::emit::{json, markdown};
use dmaspec_testkit::model;

/// (conflict, what conflicts.md must show for it, a source each side cites).
const NINE: [(&str, &str, [&str; 2]); 9] = [
    (
        "1 DMACopy I+304",
        "`cce/transpose mode`",
        ["seed-000 §DMA DIRECT2D", "seed-003 §3.4"],
    ),
    (
        "2 DMA_CONFIGS bits 3..7",
        "## DMA_CONFIGS.reserved_bitfield",
        ["seed-000 §Static arm", "supp-field-tables §4 Table 4.12"],
    ),
    (
        "3 QoS narrowing",
        "### qos_narrowing",
        ["seed-004 §6.1", "supp-consolidated §3.4"],
    ),
    (
        "4 DTYPE width",
        "### dtype_width",
        ["seed-004 §6.5", "supp-field-tables §4 Table 4.4b"],
    ),
    (
        "5 0xE7 operand roles",
        "`in_dtype_of_data`",
        ["seed-003 §9.1", "supp-dve-datamove §IndirectCopy"],
    ),
    (
        "6 0xE7 dst pattern",
        "`dst_mem_pattern_16b`",
        [
            "supp-instruction-bundle §Family C",
            "supp-dve-datamove §IndirectCopy",
        ],
    ),
    (
        "7 extension tile cols",
        "### extension_tile_cols",
        ["seed-004 §5.2", "supp-field-tables §2.3"],
    ),
    (
        "8 PSUM split",
        "`psum_magnitude_test`",
        ["supp-consolidated §4.1", "supp-descriptor-model §6.1"],
    ),
    (
        "9 FP32R size",
        "### fp32r_size",
        [
            "supp-addr4 §Per-dtype byte alignment",
            "supp-consolidated §1.3",
        ],
    ),
];

#[test]
fn conflicts_page_lists_each_of_the_nine() {
    let m = model();
    let docs = markdown::render(&m);
    let page = &docs
        .iter()
        .find(|(p, _)| p == "docs/conflicts.md")
        .expect("page")
        .1;
    for (what, marker, sources) in NINE {
        let at = page
            .rfind(marker)
            .unwrap_or_else(|| panic!("{what}: {marker} on conflicts.md"));
        // Both sides' sources are cited in the section (or subsection) that holds it.
        let start = page[..at + 1].rfind("\n#").unwrap_or(0);
        let next = |h: &str| page[at + 1..].find(h).map_or(page.len(), |e| at + 1 + e);
        let end = next("\n## ").min(next("\n### "));
        for s in sources {
            assert!(
                page[start..end].contains(s),
                "{what}: {s} cited next to {marker}"
            );
        }
    }
}

#[test]
fn json_carries_the_conflict_records() {
    let m = model();
    let (_, text) = &json::render(&m)[0];
    let doc: serde_json::Value = serde_json::from_str(text).expect("json");
    let names: Vec<&str> = (doc["conflicts"].as_array().expect("conflicts"))
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        [
            "udma_gen_iofic_layout",
            "m2s_tdrtp_inc_access",
            "m2s_q_sw_ctrl_access",
            "m2s_q_gdma_pref_access",
            "m2s_q_cfg_cayman_reset",
            "m2s_nc3_prefetch_on_maverick",
            "m2s_ostand_cfg_comp_req_reset",
            "s2m_comp_cfg_en_comp_ring_update_reset",
            "s2m_q_cfg_reset",
            "s2m_rcrbp_high_presence",
            "s2m_axi_ostand_cfg_wr_2",
            "s2m_err_log_mask_fields",
            "tensor_num_elem_exemption",
            "qos_narrowing",
            "dtype_width",
            "extension_tile_cols",
            "fp32r_size",
            "dropout_threshold_inline",
            "s4d4_tr_num_active_channels_width",
            "load_mask_select_src_pattern",
            "load_mask_select_pairing",
            "pool_buffer_load_src_pattern",
            "bn_backprop_bundle_roles",
            "opcode_0x8a_bf16_add",
            "opcode_0xea_select_reduce",
            "tensor_scalar_ptr_dispatch_bytes",
            "pseudo_dma_trigger_events_width",
            "opcode_c8_name",
            "inst_word_len_unit",
            "dma_flags_queue_id_width",
            "stream_shuffle_pair_order",
            "gather_pool_buffer_load_order",
            "dve_access_pattern_widths",
            "stream_shuffle_lane_map_overlap",
            "rdma_operand_layout_tag",
            "rdma_dma_engine_mask_meaning",
            "extended_inst_architectures",
            "gs_control_ex_a",
            "udma_q_cdesc_base_ptr_offset",
            "neff_tar_dialect",
            "neff_header_size",
            "neff_unused_0",
            "neff_def_json_tables",
            "neff_kelf_node_attrs",
            "neff_leading_header",
            "neff_feature_bits_offset",
            "notification_type_count",
            "s3d3_collective_reserved1_span",
            "udma_desc_bit_order",
            "sdma_desc_word0_listing",
            "sdma_cce_w0_overlay",
            "sdma_cce_w1_overlay",
            "sdma_cce_w2_w3_overlay",
        ]
    );
    // Item 9 is data: the device reading carries the consolidated page's CARRIED tag.
    let fp32r =
        &doc["conflicts"][names.iter().position(|n| *n == "fp32r_size").unwrap()]["readings"];
    assert_eq!(fp32r[1]["name"], "device_table_0_bytes");
    assert_eq!(fp32r[1]["confidence"]["tag"], "HIGH/CARRIED");
    assert_eq!(fp32r[0]["confidence"]["tag"], "CERTAIN");
}
