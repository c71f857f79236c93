//! The `.tir` parser of `gripline-formats`: syntax, units, warnings, errors, and robustness
//! against any text.

use std::path::PathBuf;

use gripline_formats::tir::{TirError, load_tir, parse_tir};
use gripline_physics::tire::magic_formula::MfVersion;
use gripline_physics::tire::{TireInput, TireModel};
use gripline_physics::validate::Validate;
use proptest::prelude::*;

fn tyre_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../assets/tyres")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(tyre_path(name)).unwrap()
}

/// The smallest valid MF 6.1 file: the required keys only.
const MINIMAL: &str = "[MODEL]
FITTYP = 61
[DIMENSION]
UNLOADED_RADIUS = 0.3135
[OPERATING_CONDITIONS]
NOMPRES = 220000
[VERTICAL]
FNOMIN = 4000
[LONGITUDINAL_COEFFICIENTS]
PCX1 = 1.579
PDX1 = 1.0422
PKX1 = 21.69
[LATERAL_COEFFICIENTS]
PCY1 = 1.3332
PDY1 = 0.8784
PKY1 = -15.314
[ALIGNING_COEFFICIENTS]
QBZ1 = 11.692
QCZ1 = 1.2793
QDZ1 = 0.08993
";

#[test]
fn tno_file_loads_with_its_ranges() {
    let parsed = load_tir(&tyre_path("TNO_car205_60R15.tir")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed.fittyp, 62);
    assert_eq!(parsed.model.version(), MfVersion::Mf62);
    assert_eq!(parsed.tyre_side.as_deref(), Some("LEFT"));
    assert!(
        parsed.warnings.is_empty(),
        "every key of the TNO file is known: {:?}",
        parsed.warnings
    );
    let c = parsed.model.coefficients();
    for (got, want) in [
        (c.fzmin, 100.0),
        (c.fzmax, 10_000.0),
        (c.kpumin, -1.5),
        (c.kpumax, 1.5),
        (c.alpmin, -1.5),
        (c.alpmax, 1.5),
        (c.cammin, -0.175),
        (c.cammax, 0.175),
        (c.presmin, 10_000.0),
        (c.presmax, 1_000_000.0),
        (c.fnomin, 4000.0),
        (c.unloaded_radius, 0.3135),
        (c.nompres, 220_000.0),
        (c.pky1, -15.314),
        (c.qdz1, 0.08993),
        (c.vertical_stiffness, 209_651.5),
        (c.q_fys1, -20_496.4),
    ] {
        assert!((got - want).abs() <= 1e-12 * want.abs(), "{got} != {want}");
    }
    let header: Vec<&str> = parsed.header.iter().map(|(k, _)| k.as_str()).collect();
    assert!(
        header.contains(&"FILE_TYPE") && header.contains(&"USE_MODE"),
        "{header:?}"
    );
    assert!(parsed.defaulted.is_empty() || !parsed.defaulted.contains(&"FNOMIN"));
    assert!(parsed.model.check().is_ok());
}

#[test]
fn sample_files_load() {
    for (name, fittyp, version) in [
        ("MagicFormula52_Parameters.tir", 6, MfVersion::Mf52),
        ("MagicFormula61_Parameters.tir", 61, MfVersion::Mf61),
        ("MagicFormula62_Parameters.tir", 61, MfVersion::Mf61),
    ] {
        let parsed = load_tir(&tyre_path(name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.fittyp, fittyp, "{name}");
        assert_eq!(parsed.model.version(), version, "{name}");
        // MASS appears twice: the unit in [UNITS], the tyre mass in [COEFFICIENTS].
        assert_eq!(parsed.units.mass, "kg");
        // LCZ is known to the format but not used by MFeval: a warning with its line.
        assert!(
            parsed
                .warnings
                .iter()
                .any(|w| w.key.as_deref() == Some("LCZ") && w.line.is_some()),
            "{name}: {:?}",
            parsed.warnings
        );
    }
    let mf61 = load_tir(&tyre_path("MagicFormula61_Parameters.tir")).unwrap();
    assert!((mf61.model.coefficients().mass - 17.451).abs() < 1e-12);
    assert!((mf61.model.coefficients().rby4 - 1747.3832).abs() < 1e-9);
}

#[test]
fn comments_in_every_place() {
    let text = MINIMAL
        .replace(
            "[MODEL]\n",
            "$ a dollar comment\n! a bang comment\n   $ indented\n[MODEL]  $ header comment\n",
        )
        .replace(
            "FNOMIN = 4000",
            "FNOMIN = 4000 $ nominal load ! with = signs = inside",
        )
        .replace("PDX1 = 1.0422", "PDX1 = 1.0422! bang right after the value");
    let parsed = parse_tir(&text, "comments.tir").unwrap_or_else(|e| panic!("{e}"));
    let c = parsed.model.coefficients();
    assert!((c.fnomin - 4000.0).abs() < 1e-12);
    assert!((c.pdx1 - 1.0422).abs() < 1e-15);
    // Only the file-wide notes about defaults, nothing about a line.
    assert!(
        parsed.warnings.iter().all(|w| w.line.is_none()),
        "{:?}",
        parsed.warnings
    );
}

#[test]
fn crlf_and_lf_give_the_same_tyre() {
    let lf = read("MagicFormula61_Parameters.tir").replace("\r\n", "\n");
    let crlf = lf.replace('\n', "\r\n");
    let a = parse_tir(&lf, "lf.tir").unwrap();
    let b = parse_tir(&crlf, "crlf.tir").unwrap();
    assert_eq!(a.model, b.model);
    // And the TNO file, which is CRLF, read as LF.
    let tno = read("TNO_car205_60R15.tir");
    assert!(tno.contains("\r\n"));
    let tno_lf = parse_tir(&tno.replace("\r\n", "\n"), "tno_lf.tir").unwrap();
    let tno_crlf = parse_tir(&tno, "tno.tir").unwrap();
    assert_eq!(tno_lf.model, tno_crlf.model);
}

#[test]
fn keys_are_case_insensitive_and_whitespace_free() {
    let text = MINIMAL
        .replace("FITTYP = 61", "fittyp=61")
        .replace("FNOMIN = 4000", "\tFnomin\t =\t 4000   ")
        .replace("PKY1 = -15.314", "pky1      =-15.314")
        .replace("[LATERAL_COEFFICIENTS]", "[lateral_coefficients]");
    let parsed = parse_tir(&text, "case.tir").unwrap_or_else(|e| panic!("{e}"));
    let c = parsed.model.coefficients();
    assert!((c.fnomin - 4000.0).abs() < 1e-12);
    assert!((c.pky1 + 15.314).abs() < 1e-12);
    assert_eq!(parsed.fittyp, 61);
}

#[test]
fn number_formats() {
    let text = format!(
        "{MINIMAL}[X]\nPHY1 = -.3\nPHY2 = 1.5e+05\nPVY1 = 1.5D-02\nPVY2 = +2\nPVY3 = 3.\nPVY4 = 1E3\n"
    );
    let parsed = parse_tir(&text, "numbers.tir").unwrap_or_else(|e| panic!("{e}"));
    let c = parsed.model.coefficients();
    assert_eq!(
        (c.phy1, c.phy2, c.pvy1, c.pvy2, c.pvy3, c.pvy4),
        (-0.3, 1.5e5, 1.5e-2, 2.0, 3.0, 1e3)
    );
}

#[test]
fn quoted_strings() {
    let text = format!(
        "[MDI_HEADER]\nFILE_TYPE = 'tir'\nFILE_FORMAT = \"ASCII\" $ double quotes\n\
         PROPERTY_FILE_FORMAT ='USER'\nFUNCTION_NAME = 'lib::TYR815 $ not a comment'\n\
         [UNITS]\nLENGTH = 'meter'\nFORCE='newton'\n{MINIMAL}TYRESIDE = 'right'\n"
    );
    let parsed = parse_tir(&text, "quotes.tir").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed.tyre_side.as_deref(), Some("RIGHT"));
    let get = |key: &str| {
        parsed
            .header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(get("FILE_TYPE"), Some("tir"));
    assert_eq!(get("FILE_FORMAT"), Some("ASCII"));
    assert_eq!(get("PROPERTY_FILE_FORMAT"), Some("USER"));
    assert_eq!(get("FUNCTION_NAME"), Some("lib::TYR815 $ not a comment"));
    assert_eq!(parsed.units.length, "meter");

    let err = parse_tir(&format!("{MINIMAL}FILE_TYPE = 'tir\n"), "open.tir").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("open.tir:21: unterminated quoted value"),
        "{err}"
    );
    let err = parse_tir(&format!("{MINIMAL}PDY2 = '0.1'\n"), "q.tir").unwrap_err();
    assert!(
        err.to_string()
            .contains("q.tir:21: expected a number for PDY2"),
        "{err}"
    );
}

#[test]
fn unknown_keys_warn_with_line_and_key() {
    let text = format!("{MINIMAL}[MY_SECTION]\nBANANA = 3\nLGAY = 0.5\n");
    let parsed = parse_tir(&text, "unknown.tir").unwrap();
    let banana = parsed
        .warnings
        .iter()
        .find(|w| w.key.as_deref() == Some("BANANA"))
        .expect("a warning for BANANA");
    assert_eq!(banana.line, Some(22));
    assert_eq!(
        banana.to_string(),
        "unknown.tir:22: unknown key BANANA ignored"
    );
    let lgay = parsed
        .warnings
        .iter()
        .find(|w| w.key.as_deref() == Some("LGAY"))
        .expect("a warning for LGAY");
    assert_eq!(lgay.line, Some(23));
    assert!(lgay.message.contains("not use"), "{lgay}");
}

#[test]
fn duplicate_keys_warn_and_the_last_wins() {
    let text = format!("{MINIMAL}PDY1 = 1.5\n");
    let parsed = parse_tir(&text, "dup.tir").unwrap();
    assert!((parsed.model.coefficients().pdy1 - 1.5).abs() < 1e-15);
    let w = parsed
        .warnings
        .iter()
        .find(|w| w.key.as_deref() == Some("PDY1"))
        .unwrap();
    assert!(
        w.to_string()
            .starts_with("dup.tir:21: PDY1 given again (first on line 15)"),
        "{w}"
    );
}

#[test]
fn missing_defaults_are_listed() {
    let parsed = parse_tir(MINIMAL, "mini.tir").unwrap();
    assert!(parsed.defaulted.contains(&"LONGVL"));
    assert!(
        parsed
            .warnings
            .iter()
            .any(|w| w.line.is_none() && w.message.contains("LONGVL = 16.7")),
        "{:?}",
        parsed.warnings
    );
    // Scaling factors default to 1.
    assert!((parsed.model.coefficients().lmuy - 1.0).abs() < f64::EPSILON);
}

#[test]
fn missing_required_key_names_key_and_file() {
    let text = MINIMAL.replace("FNOMIN = 4000\n", "");
    let err = parse_tir(&text, "no_fnomin.tir").unwrap_err();
    assert!(matches!(&err, TirError::MissingKeys { keys, .. } if keys == &["FNOMIN"]));
    assert_eq!(
        err.to_string(),
        "no_fnomin.tir: missing required key FNOMIN (a Magic Formula property file must give it)"
    );
    let text = MINIMAL.replace("FITTYP = 61\n", "");
    let err = parse_tir(&text, "no_fittyp.tir").unwrap_err().to_string();
    assert!(
        err.contains("no_fittyp.tir") && err.contains("FITTYP"),
        "{err}"
    );
    let text = MINIMAL
        .replace("PKX1 = 21.69\n", "")
        .replace("NOMPRES = 220000\n", "");
    let err = parse_tir(&text, "two.tir").unwrap_err().to_string();
    assert!(err.contains("missing required keys PKX1, NOMPRES"), "{err}");
    // MF 5.2 has no pressure terms: NOMPRES is optional there.
    let text = MINIMAL
        .replace("FITTYP = 61", "FITTYP = 6")
        .replace("NOMPRES = 220000\n", "");
    assert!(parse_tir(&text, "mf52.tir").is_ok());
}

#[test]
fn malformed_lines_name_file_and_line() {
    let cases = [
        ("JUST SOME WORDS", "expected `KEY = value`"),
        ("[UNCLOSED", "expected `]`"),
        ("[]", "expected a section name"),
        ("= 3", "expected a key name"),
        ("MY KEY = 3", "expected a key name"),
        ("PDY2 =", "expected a value after `PDY2 =`"),
        (
            "PDY2 = 0.1.2",
            "expected a finite number for PDY2, found `0.1.2`",
        ),
        ("PDY2 = nan", "expected a finite number for PDY2"),
        ("PDY2 = inf", "expected a finite number for PDY2"),
        (
            "FILE_TYPE = 'tir' junk",
            "unexpected `junk` after the quoted value",
        ),
    ];
    for (line, expected) in cases {
        let text = format!("{MINIMAL}{line}\n");
        let err = parse_tir(&text, "bad.tir").unwrap_err();
        assert!(
            matches!(err, TirError::Syntax { line: 21, .. }),
            "{line}: {err:?}"
        );
        let message = err.to_string();
        assert!(message.starts_with("bad.tir:21: "), "{message}");
        assert!(message.contains(expected), "{line}: {message}");
    }
}

#[test]
fn unsupported_fittyp_and_invalid_values() {
    let err = parse_tir(&MINIMAL.replace("FITTYP = 61", "FITTYP = 5"), "v5.tir").unwrap_err();
    assert_eq!(
        err.to_string(),
        "v5.tir:2: unsupported FITTYP 5: expected 6 or 21 (MF 5.2), 61 (MF 6.1) or 62 (MF 6.2)"
    );
    assert!(parse_tir(&MINIMAL.replace("FITTYP = 61", "FITTYP = 6.1e1"), "x.tir").is_ok());
    assert!(parse_tir(&MINIMAL.replace("FITTYP = 61", "FITTYP = 21"), "x.tir").is_ok());
    let err = parse_tir(
        &MINIMAL.replace("FNOMIN = 4000", "FNOMIN = -4000"),
        "neg.tir",
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "neg.tir: invalid coefficients: FNOMIN must be finite and positive"
    );
}

#[test]
fn io_errors_name_the_path() {
    let err = load_tir(&tyre_path("no_such_tyre.tir")).unwrap_err();
    assert!(matches!(err, TirError::Io { .. }));
    assert!(
        err.to_string().contains("no_such_tyre.tir: cannot read"),
        "{err}"
    );
}

#[test]
fn tables_are_skipped() {
    let text = format!(
        "{MINIMAL}[SHAPE]\n{{radial width}}\n 1.0    0.0\n 1.0    0.4\n\
         [DEFLECTION_LOAD_CURVE]\n{{pen       fz}}\n0.000     0.0\n0.001   212.0\n[MODEL]\nLONGVL = 16.7\n"
    );
    let parsed = parse_tir(&text, "tables.tir").unwrap_or_else(|e| panic!("{e}"));
    assert!((parsed.model.coefficients().longvl - 16.7).abs() < 1e-12);
    assert_eq!(
        parsed
            .warnings
            .iter()
            .filter(|w| w.message.contains("ignored") && w.key.is_none())
            .count(),
        2,
        "{:?}",
        parsed.warnings
    );
}

#[test]
fn other_units_are_converted() {
    // The MF 6.1 sample rewritten in mm, kN, kPa, g and ms must give the same tyre.
    let si = read("MagicFormula61_Parameters.tir");
    let scale = |key: &str, factor: f64, text: &str| -> String {
        text.lines()
            .map(|line| match line.split_once('=') {
                Some((k, v)) if k.trim() == key => {
                    let value: f64 = v.trim().parse().unwrap();
                    format!("{key} = {:e}", value * factor)
                }
                _ => line.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut other = si
        .replace("LENGTH = 'meter'", "LENGTH = 'mm'")
        .replace("FORCE = 'newton'", "FORCE = 'kN'")
        .replace("MASS = 'kg'", "MASS = 'gram'")
        .replace("TIME = 'second'", "TIME = 'ms'\nPRESSURE = 'kPa'");
    for (key, factor) in [
        ("UNLOADED_RADIUS", 1e3),
        ("WIDTH", 1e3),
        ("RIM_RADIUS", 1e3),
        ("RIM_WIDTH", 1e3),
        ("BOTTOM_OFFST", 1e3),
        ("FNOMIN", 1e-3),
        ("FZMIN", 1e-3),
        ("INFLPRES", 1e-3),
        ("NOMPRES", 1e-3),
        ("LONGVL", 1.0), // m/s = mm/ms
        ("VXLOW", 1.0),
        ("VERTICAL_STIFFNESS", 1e-6), // N/m -> kN/mm
        ("BOTTOM_STIFF", 1e-6),
        ("LONGITUDINAL_STIFFNESS", 1e-6),
        ("LATERAL_STIFFNESS", 1e-6),
        ("VERTICAL_DAMPING", 1e-3), // N s/m -> kN ms/mm
        ("IXX", 1e9),               // kg m^2 -> g mm^2
        ("IYY", 1e9),
    ] {
        other = scale(key, factor, &other);
    }
    other = other.replacen("MASS = 1.7451e1", "MASS = 1.7451e4", 1);
    let a = parse_tir(&si, "si.tir").unwrap();
    let b = parse_tir(&other, "mm.tir").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b.units.length, "mm");
    assert_eq!(b.units.pressure.as_deref(), Some("kPa"));
    for ((key, x), (_, y)) in a
        .model
        .coefficients()
        .iter()
        .zip(b.model.coefficients().iter())
    {
        assert!(
            (x - y).abs() <= 1e-12 * x.abs().max(1e-300),
            "{key}: {x} vs {y}"
        );
    }
    let input = TireInput::rolling(5000.0, 20.0)
        .with_alpha(0.05)
        .with_kappa(0.02);
    let (fa, fb) = (a.model.evaluate(&input), b.model.evaluate(&input));
    assert!(
        (fa.fy - fb.fy).abs() < 1e-9 * fa.fy.abs() && (fa.mz - fb.mz).abs() < 1e-9 * fa.mz.abs()
    );

    let err = parse_tir(&si.replace("'meter'", "'furlong'"), "f.tir").unwrap_err();
    assert_eq!(
        err.to_string(),
        "f.tir:2: LENGTH = 'furlong': unknown length unit"
    );
    let err = parse_tir(&si.replace("'radians'", "'degrees'"), "d.tir").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("d.tir:4: ANGLE = 'degrees': angles in degrees"),
        "{err}"
    );
}

#[test]
fn bom_and_cr_only_line_ends() {
    let text = format!("\u{feff}{}", MINIMAL.replace('\n', "\r"));
    assert!(parse_tir(&text, "mac.tir").is_ok());
}

/// `[GRIPLINE_THERMAL]`: its keys set Gripline's thermal model, the rest take the
/// defaults, unknown keys warn, and the Magic Formula keys after it are read as before.
#[test]
fn thermal_section_sets_its_keys_and_defaults_the_rest() {
    let parsed = parse_tir(MINIMAL, "mini.tir").unwrap();
    assert!(parsed.thermal.is_none(), "no section, no thermal model");
    let text = format!(
        "{MINIMAL}[GRIPLINE_THERMAL]\nOPTIMUM_TEMP_C = 90 $ a comment\n\
         window_half_width_c = 45\nBANANA = 3\n[MODEL]\nLONGVL = 16.7\n"
    );
    let parsed = parse_tir(&text, "t.tir").unwrap();
    let thermal = parsed.thermal.expect("the section gives a thermal model");
    assert!((thermal.optimum_temp_c - 90.0).abs() < 1e-12);
    assert!((thermal.window_half_width_c - 45.0).abs() < 1e-12);
    let defaults = gripline_physics::tire::thermal::TyreThermalParams::default();
    assert!(
        (thermal.tread_heat_capacity_j_per_k - defaults.tread_heat_capacity_j_per_k).abs() < 1e-12
    );
    // The keys after the section went back to the Magic Formula.
    assert!((parsed.model.coefficients().longvl - 16.7).abs() < 1e-12);
    let banana = parsed
        .warnings
        .iter()
        .find(|w| w.key.as_deref() == Some("BANANA"))
        .expect("a warning for BANANA");
    assert_eq!(banana.line, Some(24));
    assert!(banana.message.contains("GRIPLINE_THERMAL"), "{banana}");
    let empty = parse_tir(&format!("{MINIMAL}[gripline_thermal]\n"), "e.tir").unwrap();
    assert_eq!(empty.thermal, Some(defaults));
}

/// NaN, text, overflow and out-of-range thermal values: an error naming the line or the key,
/// never a panic.
#[test]
fn bad_thermal_values_are_errors_not_panics() {
    for (line, expected) in [
        (
            "OPTIMUM_TEMP_C = nan",
            "t.tir:22: expected a finite number for OPTIMUM_TEMP_C",
        ),
        (
            "OPTIMUM_TEMP_C = 'hot'",
            "t.tir:22: expected a finite number for OPTIMUM_TEMP_C",
        ),
        (
            "OPTIMUM_TEMP_C = 1e400",
            "t.tir:22: expected a finite number for OPTIMUM_TEMP_C",
        ),
        (
            "TREAD_HEAT_CAPACITY_J_PER_K = -4000",
            "t.tir: invalid coefficients: [GRIPLINE_THERMAL].tread_heat_capacity_j_per_k \
             must be finite and positive",
        ),
        (
            "SLIDING_HEAT_TO_TYRE_FRACTION = 2",
            "t.tir: invalid coefficients: [GRIPLINE_THERMAL].sliding_heat_to_tyre_fraction \
             must be between 0 and 1 (is 2)",
        ),
    ] {
        let text = format!("{MINIMAL}[GRIPLINE_THERMAL]\n{line}\n");
        let err = parse_tir(&text, "t.tir").expect_err(line).to_string();
        assert!(err.starts_with(expected), "{line}: {err}");
    }
}

fn no_persistence(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(no_persistence(2000))]

    #[test]
    fn random_text_never_panics(text in "\\PC*") {
        let _ = parse_tir(&text, "random.tir");
    }

    #[test]
    fn tir_like_text_never_panics(
        lines in prop::collection::vec(
            prop_oneof![
                "[A-Z_\\[\\]]{0,12}",
                "[A-Za-z0-9_ ]{0,8}=[ -~]{0,12}",
                "(FITTYP|FNOMIN|PDY1|LENGTH|TYRESIDE|MASS) ?= ?('|\")?[-+.eE0-9a-z]{0,8}('|\")?",
                "[$!{].{0,10}",
            ],
            0..40,
        ),
        crlf in any::<bool>(),
    ) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        let _ = parse_tir(&text, "tir_like.tir");
        let with_header = format!("{MINIMAL}{text}");
        let _ = parse_tir(&with_header, "tir_like.tir");
    }

    #[test]
    fn truncated_files_never_panic(cut in 0usize..30_000, file in 0usize..4) {
        let name = [
            "TNO_car205_60R15.tir",
            "MagicFormula52_Parameters.tir",
            "MagicFormula61_Parameters.tir",
            "MagicFormula62_Parameters.tir",
        ][file];
        let text = read(name);
        let mut end = cut.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let _ = parse_tir(&text[..end], name);
    }

    #[test]
    fn mangled_lines_never_panic(line in 0usize..400, garbage in "\\PC{0,20}") {
        let text = read("TNO_car205_60R15.tir");
        let mangled: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| if i == line { garbage.clone() } else { l.to_owned() })
            .collect();
        let _ = parse_tir(&mangled.join("\r\n"), "mangled.tir");
    }
}
