//! The tyre lab's CSV input and its CSV / JSON output.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use gripline_physics::tire::{TireInput, TireOutput};

/// The input columns, in the order the header of a points file names them.
pub const INPUT_COLUMNS: [&str; 6] = ["fz", "kappa", "alpha", "gamma", "vx", "pressure"];
/// The output columns appended to each row.
pub const OUTPUT_COLUMNS: [&str; 5] = ["fx", "fy", "mz", "mx", "my"];

/// One evaluated row: the input as the user wrote it (for echoing) and the numbers.
#[derive(Clone, Debug)]
pub struct Row {
    /// The row's input fields as text, in the file's column order.
    pub fields: Vec<String>,
    /// The parsed input.
    pub input: TireInput,
    /// The model's output.
    pub output: TireOutput,
}

/// A parsed points file: its header (column names in file order) and the inputs.
#[derive(Clone, Debug)]
pub struct Points {
    /// Column names as written in the header.
    pub header: Vec<String>,
    /// Each data row's fields as text and as parsed input.
    pub rows: Vec<(Vec<String>, TireInput)>,
}

/// Parses a points CSV. Columns may come in any order but must be exactly the six inputs.
/// Blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// Naming the file, the line and the field: missing or unknown columns, a wrong field count,
/// a value that is not a finite number.
pub fn parse_points(text: &str, path: &Path, mu_scale: f64) -> Result<Points> {
    let name = path.display();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'));
    let Some((header_line, header_text)) = lines.next() else {
        bail!(
            "{name}: empty file, expected the header {}",
            INPUT_COLUMNS.join(",")
        );
    };
    let header: Vec<String> = header_text
        .trim_start_matches('\u{feff}')
        .split(',')
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    let mut slot_of_column = Vec::with_capacity(header.len());
    for column in &header {
        let Some(slot) = INPUT_COLUMNS.iter().position(|c| c == column) else {
            bail!(
                "{name}:{header_line}: unknown column '{column}' (expected {})",
                INPUT_COLUMNS.join(",")
            );
        };
        if slot_of_column.contains(&slot) {
            bail!("{name}:{header_line}: column '{column}' appears twice");
        }
        slot_of_column.push(slot);
    }
    if let Some(missing) = INPUT_COLUMNS
        .iter()
        .enumerate()
        .find(|(slot, _)| !slot_of_column.contains(slot))
    {
        bail!("{name}:{header_line}: missing column '{}'", missing.1);
    }

    let mut rows = Vec::new();
    for (line_no, line) in lines {
        let fields: Vec<String> = line.split(',').map(|f| f.trim().to_owned()).collect();
        if fields.len() != header.len() {
            bail!(
                "{name}:{line_no}: expected {} fields, found {}",
                header.len(),
                fields.len()
            );
        }
        let mut values = [0.0; 6];
        for (field, (&slot, column)) in fields.iter().zip(slot_of_column.iter().zip(&header)) {
            let value: f64 = field
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .with_context(|| {
                    format!("{name}:{line_no}: field '{column}': '{field}' is not a finite number")
                })?;
            values[slot] = value;
        }
        let [fz, kappa, alpha, gamma, vx, pressure] = values;
        rows.push((
            fields,
            TireInput {
                fz,
                kappa,
                alpha,
                gamma,
                vx,
                pressure,
                mu_scale,
            },
        ));
    }
    Ok(Points { header, rows })
}

/// The input fields of a generated row, in the canonical column order, full precision.
pub fn canonical_fields(input: &TireInput) -> Vec<String> {
    [
        input.fz,
        input.kappa,
        input.alpha,
        input.gamma,
        input.vx,
        input.pressure,
    ]
    .iter()
    .map(|v| format!("{v:?}"))
    .collect()
}

/// Writes rows as CSV: the header with the output columns appended, then each row as given
/// with the outputs appended in full f64 precision (shortest text that reads back exactly).
pub fn to_csv(header: &[String], rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(&header.join(","));
    for column in OUTPUT_COLUMNS {
        out.push(',');
        out.push_str(column);
    }
    out.push('\n');
    for row in rows {
        out.push_str(&row.fields.join(","));
        let o = &row.output;
        for value in [o.fx, o.fy, o.mz, o.mx, o.my] {
            let _ = write!(out, ",{value:?}");
        }
        out.push('\n');
    }
    out
}

/// Writes rows as a JSON array of objects with the input and output columns.
pub fn to_json(rows: &[Row]) -> String {
    let values: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            let i = &row.input;
            let o = &row.output;
            serde_json::json!({
                "fz": i.fz, "kappa": i.kappa, "alpha": i.alpha, "gamma": i.gamma,
                "vx": i.vx, "pressure": i.pressure,
                "fx": o.fx, "fy": o.fy, "mz": o.mz, "mx": o.mx, "my": o.my,
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&values).unwrap_or_else(|_| "[]".to_owned());
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Points> {
        parse_points(text, Path::new("p.csv"), 1.0)
    }

    #[test]
    fn reads_columns_in_any_order_and_skips_comments() {
        let points =
            parse("# a comment\nalpha,fz,kappa,gamma,vx,pressure\n\n0.1,4000,0.02,0,20,2.2e5\n")
                .unwrap();
        assert_eq!(points.rows.len(), 1);
        let input = points.rows[0].1;
        assert_eq!((input.fz, input.alpha, input.kappa), (4000.0, 0.1, 0.02));
        assert_eq!(points.rows[0].0[0], "0.1");
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let err = parse("fz,kappa,alpha,gamma,vx,pressure\n1,2,x,4,5,6\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "p.csv:2: field 'alpha': 'x' is not a finite number"
        );
        let err = parse("fz,kappa,alpha,gamma,vx,pressure\n1,2,NaN,4,5,6\n").unwrap_err();
        assert!(err.to_string().contains("'NaN' is not a finite number"));
        let err = parse("fz,kappa,alpha,gamma,vx\n").unwrap_err();
        assert_eq!(err.to_string(), "p.csv:1: missing column 'pressure'");
        let err = parse("fz,kappa,alpha,gamma,vx,pressure,fx\n").unwrap_err();
        assert!(err.to_string().starts_with("p.csv:1: unknown column 'fx'"));
        let err = parse("fz,kappa,alpha,gamma,vx,pressure\n1,2,3\n").unwrap_err();
        assert_eq!(err.to_string(), "p.csv:2: expected 6 fields, found 3");
        assert!(parse("").unwrap_err().to_string().contains("empty file"));
    }

    #[test]
    fn csv_output_keeps_full_precision() {
        let input = TireInput::rolling(4000.0, 20.0);
        let row = Row {
            fields: canonical_fields(&input),
            input,
            output: TireOutput {
                fx: 0.1 + 0.2,
                ..TireOutput::default()
            },
        };
        let csv = to_csv(&["fz".into()], &[row]);
        assert!(csv.starts_with("fz,fx,fy,mz,mx,my\n"));
        let fx: f64 = csv
            .lines()
            .nth(1)
            .unwrap()
            .split(',')
            .nth(6)
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(fx.to_bits(), (0.1f64 + 0.2).to_bits());
    }
}
