//! Tests of the known-wheel table: lookups, backends, shared product IDs and peak estimates.

use super::*;

#[test]
fn lookup_by_ids() {
    let g29 = lookup(0x046d, 0xc24f).unwrap();
    assert_eq!(g29.backend, FfbBackendKind::LogitechClassic);
    assert_eq!(g29.linux_backend(), FfbBackendKind::EvdevConstant);
    assert_eq!(g29.to_string(), "046d:c24f Logitech G29 (PS3 mode)");
    assert_eq!(
        lookup(0x1209, 0xffb0).unwrap().backend,
        FfbBackendKind::HidPid
    );
    assert_eq!(
        lookup(0x0eb7, 0x0020).unwrap().backend,
        FfbBackendKind::EvdevConstant
    );
    assert_eq!(
        lookup(0x046d, 0xc261).unwrap().linux_backend(),
        FfbBackendKind::None
    );
    assert!(lookup(0x046d, 0x0000).is_none());
}

#[test]
fn ids_are_unique_and_values_sane() {
    for (i, a) in KNOWN_WHEELS.iter().enumerate() {
        for b in &KNOWN_WHEELS[i + 1..] {
            assert!(
                (a.vendor_id, a.product_id) != (b.vendor_id, b.product_id),
                "{a} twice"
            );
        }
        assert!((40.0..=3600.0).contains(&a.default_rotation_deg), "{a}");
        if let Some(t) = a.peak_torque_nm {
            assert!(t > 0.0 && t < 50.0, "{a}");
        }
    }
}

#[test]
fn every_requested_family_is_present() {
    for name in [
        "Driving Force GT",
        "G25",
        "G27",
        "G29",
        "G920",
        "G923",
        "T150",
        "TMX",
        "T300RS",
        "T248",
        "TX",
        "TS-XW",
        "CSL DD",
        "V2",
        "V2.5",
        "R5",
        "R9",
        "R12",
        "Simucube 2",
        "Alpha",
        "OpenFFBoard",
        "T818",
        "T128",
        "T598",
        "T-GT II",
        "Asetek Invicta",
        "Asetek Forte",
        "Asetek La Prima",
        "Asetek Tony Kanaan",
        "G PRO",
    ] {
        assert!(
            KNOWN_WHEELS.iter().any(|w| w.name.contains(name)),
            "{name} missing"
        );
    }
}

#[test]
fn shared_product_ids_assume_the_strongest_base() {
    for shared in SHARED_PRODUCT_IDS {
        let entry = lookup(shared.vendor_id, shared.product_id).expect("in the table");
        let strongest = shared.strongest_nm();
        assert_eq!(
            entry.peak_torque_nm.map(f64::to_bits),
            Some(strongest.to_bits()),
            "{entry}"
        );
        assert_eq!(entry.shared_family(), Some(shared.family));
    }
    assert!(lookup(0x046d, 0xc24f).unwrap().shared_family().is_none());
}

#[test]
fn the_wheels_issue_10_asked_for_are_known() {
    for (vid, pid, backend) in [
        (0x0483, 0xa355, FfbBackendKind::HidPid), // VRS DirectForce Pro
        (0x3416, 0x0301, FfbBackendKind::HidPid), // Cammus C5
        (0x3416, 0x0302, FfbBackendKind::HidPid), // Cammus C12
        (0x346e, 0x0005, FfbBackendKind::HidPid), // Moza R3
        (0x346e, 0x0000, FfbBackendKind::HidPid), // Moza R16/R21
        (0x16d0, 0x0d5a, FfbBackendKind::HidPid), // Simucube 1
        (0x044f, 0xb689, FfbBackendKind::EvdevConstant), // TS-PC
        (0x0eb7, 0x0e03, FfbBackendKind::EvdevConstant), // CSL Elite
        (0x0eb7, 0x0006, FfbBackendKind::EvdevConstant), // Podium DD1
        (0x0eb7, 0x0007, FfbBackendKind::EvdevConstant), // Podium DD2
        (0x046d, 0xc298, FfbBackendKind::LogitechClassic), // Driving Force Pro
        (0x046d, 0xc294, FfbBackendKind::LogitechClassic), // Driving Force EX
        (0x046d, 0xc295, FfbBackendKind::LogitechClassic), // MOMO Force
        (0x046d, 0xca03, FfbBackendKind::LogitechClassic), // MOMO Racing
    ] {
        let w = lookup(vid, pid).unwrap_or_else(|| panic!("{vid:04x}:{pid:04x} missing"));
        assert_eq!(w.backend, backend, "{w}");
        assert!(w.peak_torque_nm.is_some(), "{w} has a peak estimate");
    }
    // The DFP entry and the DFP range special case agree.
    assert_eq!(
        lookup(0x046d, crate::known_wheels::PID_LOGITECH_DFP).map(|w| w.name),
        Some("Logitech Driving Force Pro")
    );
}

#[test]
fn every_wheel_with_force_feedback_has_a_peak_estimate() {
    for w in KNOWN_WHEELS {
        if w.backend == FfbBackendKind::None {
            assert!(peak_estimate(w.vendor_id, w.product_id).is_none(), "{w}");
            continue;
        }
        let e = peak_estimate(w.vendor_id, w.product_id)
            .unwrap_or_else(|| panic!("{w} has force feedback but no peak"));
        assert_eq!(
            e.peak_torque_nm.to_bits(),
            w.peak_torque_nm.map(f64::to_bits).unwrap_or_default()
        );
        assert_eq!(e.shared_family, w.shared_family(), "{w}");
    }
    assert!(peak_estimate(0x1234, 0x5678).is_none());
}

#[test]
fn shared_ids_give_the_family_maximum_and_say_so() {
    for (vid, pid, max) in [
        (0x0eb7, 0x0020, 15.0), // Fanatec CSL DD .. ClubSport DD+
        (0x0483, 0x0522, 23.0), // Simagic Alpha Mini .. Alpha Ultimate
        (0x346e, 0x0000, 21.0), // Moza R16 / R21
        (0x346e, 0x0010, 21.0),
        (0x16d0, 0x0d5a, 30.0), // Simucube 1
        (0x1209, 0xffb0, 32.0), // OpenFFBoard
        (0x046d, 0xc294, 2.5),  // DF-EX and every multimode wheel in DF-EX mode
        (0x046d, 0xc298, 2.5),  // DFP and wheels in DFP mode
    ] {
        let e = peak_estimate(vid, pid).unwrap();
        assert_eq!(
            e.peak_torque_nm.to_bits(),
            f64::to_bits(max),
            "{vid:04x}:{pid:04x}"
        );
        let family = e.shared_family.expect("shared");
        let listed = SHARED_PRODUCT_IDS
            .iter()
            .find(|s| (s.vendor_id, s.product_id) == (vid, pid))
            .unwrap();
        assert_eq!(family, listed.family);
        assert!(listed.peaks_nm().all(|p| p <= max));
        let line = e.summary();
        assert!(line.contains("assumed"), "{line}");
        assert!(line.contains(&format!("{vid:04x}:{pid:04x}")), "{line}");
        assert!(line.contains("Settings > Force feedback"), "{line}");
    }
    assert_eq!(
        peak_estimate(0x0483, 0x0522).unwrap().summary(),
        "23 N·m assumed: 0483:0522 is shared by Simagic Alpha Mini (10 N·m), M10 (10), Alpha \
         (15) and Alpha Ultimate (23); set the peak of your base in Settings > Force feedback"
    );
    // A wheel with an ID of its own: no family, a plain estimate.
    let r5 = peak_estimate(0x346e, 0x0004).unwrap();
    assert_eq!(r5.shared_family, None);
    assert_eq!(r5.summary(), "5.5 N·m (known-wheel estimate)");
    assert_eq!(
        lookup(0x346e, 0x0004).unwrap().peak_summary(),
        Some(r5.summary())
    );
}

#[test]
fn shared_ids_are_unique_and_in_the_table() {
    for (i, a) in SHARED_PRODUCT_IDS.iter().enumerate() {
        assert!(lookup(a.vendor_id, a.product_id).is_some());
        assert!(!a.members.is_empty());
        for b in &SHARED_PRODUCT_IDS[i + 1..] {
            assert!((a.vendor_id, a.product_id) != (b.vendor_id, b.product_id));
        }
    }
}
