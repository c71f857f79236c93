//! The tyre lab driven as a user drives it: the real `gripline` binary, real files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gripline-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn gripline(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(args)
        .env("GRIPLINE_ASSETS", repo().join("assets"))
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn shipped_tyres() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("assets/tyres"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("ron" | "tir")))
        .collect();
    files.sort();
    files
}

/// The `MFeval` reference points go through the CLI's CSV path and come back exact to 1e-6.
#[test]
fn points_mode_reproduces_mfeval_through_csv() {
    let reference =
        std::fs::read_to_string(repo().join("tests/data/mfeval/MagicFormula61_Parameters.jsonl"))
            .unwrap();
    let rows: Vec<serde_json::Value> = reference
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut csv = String::from("fz,kappa,alpha,gamma,vx,pressure\n");
    for r in &rows {
        let _ = writeln!(
            csv,
            "{:?},{:?},{:?},{:?},{:?},{:?}",
            r["fz"].as_f64().unwrap(),
            r["kappa"].as_f64().unwrap(),
            r["alpha"].as_f64().unwrap(),
            r["gamma"].as_f64().unwrap(),
            r["vx"].as_f64().unwrap(),
            r["pressure"].as_f64().unwrap()
        );
    }
    let dir = scratch("points");
    let points = dir.join("points.csv");
    std::fs::write(&points, &csv).unwrap();
    let out = gripline(&[
        "tire",
        "--tyre",
        "MagicFormula61_Parameters",
        "--points",
        points.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("fz,kappa,alpha,gamma,vx,pressure,fx,fy,mz,mx,my")
    );
    let mut count = 0;
    for (line, (r, input_line)) in lines.zip(rows.iter().zip(csv.lines().skip(1))) {
        assert!(line.starts_with(input_line), "input echoed as given");
        let values: Vec<f64> = line.split(',').map(|v| v.parse().unwrap()).collect();
        for (got, key) in values[6..9].iter().zip(["Fx", "Fy", "Mz"]) {
            let want = r[key].as_f64().unwrap();
            let rel = (got - want).abs() / want.abs().max(1.0);
            assert!(rel < 1e-6, "{key}: got {got}, MFeval {want}");
        }
        count += 1;
    }
    assert_eq!(count, rows.len());
}

#[test]
fn every_shipped_tyre_sweeps_summarises_and_plots() {
    let dir = scratch("plots");
    for tyre in shipped_tyres() {
        let stem = tyre.file_stem().unwrap().to_str().unwrap();
        let svg = dir.join(format!("{stem}.svg"));
        let out = gripline(&[
            "tire",
            "--tyre",
            tyre.to_str().unwrap(),
            "--summary",
            "--plot",
            svg.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{stem}: {}", stderr(&out));
        let summary = stdout(&out);
        assert!(summary.contains("peak Fy"), "{stem}: {summary}");
        let picture = std::fs::read_to_string(&svg).unwrap();
        // Four charts, each with one curve per load or slip angle.
        assert_eq!(picture.matches("<path").count(), 3 * 3 + 5, "{stem}");
        for sweep in ["alpha", "kappa", "combined", "camber"] {
            let out = gripline(&["tire", "--tyre", stem, "--sweep", sweep, "--steps", "11"]);
            assert!(out.status.success(), "{stem} {sweep}: {}", stderr(&out));
            let rows = stdout(&out).lines().count();
            assert!(rows > 11, "{stem} {sweep}: {rows} rows");
        }
    }
}

#[test]
fn png_plot_is_a_real_picture() {
    let dir = scratch("png");
    let png = dir.join("mf61.png");
    let out = gripline(&[
        "tire",
        "--tyre",
        "MagicFormula61_Parameters",
        "--plot",
        png.to_str().unwrap(),
        "--out",
        dir.join("data.csv").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // A blank 1240x930 image compresses to a few kilobytes; curves, grid and text add far more.
    assert!(bytes.len() > 40_000, "PNG only {} bytes", bytes.len());
}

#[test]
fn json_output_parses() {
    let out = gripline(&[
        "tire",
        "--tyre",
        "calspan-155sr13",
        "--sweep",
        "combined",
        "--steps",
        "5",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(rows.len(), 5 * 4);
    assert!(
        rows.iter()
            .all(|r| r["fy"].as_f64().is_some_and(f64::is_finite))
    );
}

#[test]
fn bad_input_gives_clear_errors_not_panics() {
    let dir = scratch("bad");
    let bad_csv = dir.join("bad.csv");
    std::fs::write(
        &bad_csv,
        "fz,kappa,alpha,gamma,vx,pressure\n4000,0,0.1,0,20,2e5\n4000,0,oops,0,20,2e5\n",
    )
    .unwrap();
    let bad_ron = dir.join("bad.ron");
    std::fs::write(&bad_ron, "(\n  name: \"x\",\n  model: Brush((\n    mu: ,\n").unwrap();
    let unknown_model = dir.join("unknown.ron");
    std::fs::write(&unknown_model, "(name: \"x\", model: Quantum(()))").unwrap();
    let bad_tir = dir.join("bad.tir");
    std::fs::write(&bad_tir, "[MODEL]\nFITTYP = 61\nthis is not a tir line\n").unwrap();
    let garbage = dir.join("garbage.tir");
    std::fs::write(&garbage, [0xff, 0xfe, 0x00, 0x9c, 0x80]).unwrap();

    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["tire", "--tyre", "no-such-tyre"],
            "no tyre named 'no-such-tyre'",
        ),
        (
            vec![
                "tire",
                "--tyre",
                "MagicFormula61_Parameters",
                "--points",
                bad_csv.to_str().unwrap(),
            ],
            "bad.csv:3: field 'alpha': 'oops' is not a finite number",
        ),
        (
            vec!["tire", "--tyre", bad_ron.to_str().unwrap()],
            "bad.ron:4:",
        ),
        (
            vec!["tire", "--tyre", unknown_model.to_str().unwrap()],
            "unknown.ron:1:",
        ),
        (vec!["tire", "--tyre", bad_tir.to_str().unwrap()], "bad.tir"),
        (
            vec!["tire", "--tyre", garbage.to_str().unwrap()],
            "garbage.tir",
        ),
        (
            vec![
                "tire",
                "--tyre",
                "MagicFormula61_Parameters",
                "--plot",
                "x.gif",
            ],
            "must be an .svg or .png",
        ),
        (
            vec![
                "tire",
                "--tyre",
                "MagicFormula61_Parameters",
                "--alpha-deg",
                "5:1",
            ],
            "--alpha-deg: MIN must be below MAX",
        ),
        (
            vec![
                "tire",
                "--tyre",
                "MagicFormula61_Parameters",
                "--loads",
                "-3",
            ],
            "--loads",
        ),
    ];
    for (args, expected) in cases {
        let out = gripline(&args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: expected '{expected}' in: {err}"
        );
    }
}
