//! The tyre lab (`gripline tire`): evaluate any tyre file at given points or over sweeps,
//! print the data as CSV or JSON, summarise it, and plot the force curves.

pub(crate) mod plot;
mod points;
mod summary;
mod sweep;

use std::io::Write as _;

use anyhow::{Context, Result, bail};
use gripline_formats::assets;
use gripline_formats::tyre_file::{LoadedTyre, load_tyre};
use gripline_physics::tire::{Tire, TireInput, TireModel, TyreSide};

use crate::cli::{Format, TireArgs};
use points::Row;
use sweep::{Conditions, SweepSpec};

/// Runs `gripline tire`.
///
/// # Errors
/// Any problem with the tyre file, the points file, the options or the outputs, each named.
pub fn run(args: &TireArgs) -> Result<()> {
    let path = assets::resolve_tyre(&args.tyre)?;
    let mut loaded = load_tyre(&path)?;
    for warning in &loaded.warnings {
        eprintln!("gripline: warning: {warning}");
    }
    if args.limits {
        loaded.tire = loaded.tire.with_input_limits(true);
    }
    if !(args.mu_scale.is_finite() && args.mu_scale >= 0.0) {
        bail!("--mu-scale must be a finite number, not negative");
    }
    let conditions = conditions(args, &loaded.tire)?;
    let spec = sweep_spec(args, &loaded.tire)?;

    let (header, rows): (Vec<String>, Vec<Row>) = if let Some(points_path) = &args.points {
        let text = std::fs::read_to_string(points_path)
            .with_context(|| format!("{}: cannot read", points_path.display()))?;
        let points = points::parse_points(&text, points_path, args.mu_scale)?;
        let rows = points
            .rows
            .into_iter()
            .map(|(fields, input)| Row {
                fields,
                output: loaded.tire.evaluate(&input),
                input,
            })
            .collect();
        (points.header, rows)
    } else {
        let rows = sweep::inputs(&spec, &conditions)
            .into_iter()
            .map(|input| Row {
                fields: points::canonical_fields(&input),
                output: loaded.tire.evaluate(&input),
                input,
            })
            .collect();
        let header = points::INPUT_COLUMNS.map(str::to_owned).to_vec();
        (header, rows)
    };

    let text = if args.summary {
        summary::describe(&loaded, &spec, &conditions)
    } else {
        match args.format {
            Format::Csv => points::to_csv(&header, &rows),
            Format::Json => points::to_json(&rows),
        }
    };
    if let Some(out) = &args.out {
        std::fs::write(out, text).with_context(|| format!("{}: cannot write", out.display()))?;
    } else {
        // A closed pipe (`| head`) is not an error worth reporting.
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
    }

    if let Some(plot_path) = &args.plot {
        let svg = plot::figure_svg(&title(&loaded), &figure(&loaded.tire, &spec, &conditions));
        plot::write_figure(&svg, plot_path)?;
        eprintln!("gripline: plot written to {}", plot_path.display());
    }
    Ok(())
}

/// The tyre lab's first two graphs of `tire` (lateral force against slip angle, longitudinal
/// force against slip ratio) as a car runs it: its default sweep (`gripline tire`'s ranges,
/// speed and points) at the loads `loads_n`, the cold pressure `pressure_pa` and the car-terms
/// camber `camber_deg` (negative: top of the wheel towards the car's centre). For the Garage.
///
/// The curves are the tyre's on the side of the car its data were measured on (the left for
/// every shipped tyre), as the other side's are their mirror image: its ISO inclination there
/// is `-camber_deg` on the left, `+camber_deg` on the right (see `gripline_physics::tire`).
///
/// # Errors
/// A load, pressure or camber that is not finite.
pub(crate) fn force_curves(
    tire: &Tire,
    loads_n: &[f64],
    pressure_pa: f64,
    camber_deg: f64,
) -> Result<Vec<plot::Chart>> {
    use clap::Parser as _;
    /// `gripline tire`'s options with their defaults.
    #[derive(clap::Parser)]
    struct Defaults {
        #[command(flatten)]
        args: TireArgs,
    }
    let mut args = Defaults::try_parse_from(["tire", "--tyre", "-"])?.args;
    args.loads = loads_n.to_vec();
    args.pressure = Some(pressure_pa);
    args.gamma_deg = match tire.measured_side() {
        TyreSide::Left => -camber_deg,
        TyreSide::Right => camber_deg,
    };
    let conditions = conditions(&args, tire)?;
    let spec = sweep_spec(&args, tire)?;
    let mut charts = figure(tire, &spec, &conditions);
    charts.truncate(2);
    Ok(charts)
}

fn title(loaded: &LoadedTyre) -> String {
    format!("{} ({})", loaded.name, loaded.tire.family())
}

fn conditions(args: &TireArgs, tire: &Tire) -> Result<Conditions> {
    let pressure = args
        .pressure
        .or_else(|| tire.nominal_pressure())
        .unwrap_or(2.2e5);
    for (value, option) in [
        (args.vx, "--vx"),
        (pressure, "--pressure"),
        (args.gamma_deg, "--gamma-deg"),
    ] {
        if !value.is_finite() {
            bail!("{option} must be a finite number");
        }
    }
    Ok(Conditions {
        vx: args.vx,
        pressure,
        gamma: args.gamma_deg.to_radians(),
        mu_scale: args.mu_scale,
    })
}

fn sweep_spec(args: &TireArgs, tire: &Tire) -> Result<SweepSpec> {
    let loads = if args.loads.is_empty() {
        tire.nominal_load().map_or_else(
            || vec![2000.0, 4000.0, 6000.0],
            |f| vec![0.5 * f, f, 1.5 * f],
        )
    } else {
        args.loads.clone()
    };
    if let Some(bad) = loads.iter().find(|f| !(f.is_finite() && **f >= 0.0)) {
        bail!("--loads: {bad} is not a load in newtons (finite, not negative)");
    }
    if let Some(bad) = args.alphas_deg.iter().find(|a| !a.is_finite()) {
        bail!("--alphas-deg: {bad} is not a finite angle");
    }
    if args.steps > 100_000 {
        bail!("--steps: at most 100000 points per curve");
    }
    let (a0, a1) = sweep::parse_range(&args.alpha_deg, "alpha-deg")?;
    let (c0, c1) = sweep::parse_range(&args.camber_deg, "camber-deg")?;
    Ok(SweepSpec {
        kind: args.sweep,
        loads,
        alpha: (a0.to_radians(), a1.to_radians()),
        kappa: sweep::parse_range(&args.kappa, "kappa")?,
        camber: (c0.to_radians(), c1.to_radians()),
        alphas: args.alphas_deg.iter().map(|a| a.to_radians()).collect(),
        steps: args.steps.max(2),
    })
}

/// The four standard graphs of a tyre.
fn figure(tire: &Tire, spec: &SweepSpec, conditions: &Conditions) -> Vec<plot::Chart> {
    let curve =
        |fz: f64,
         slip: &dyn Fn(TireInput, f64) -> TireInput,
         range: (f64, f64),
         pick: &dyn Fn(f64, &gripline_physics::tire::TireOutput) -> (f64, f64)| {
            sweep::linspace(range.0, range.1, spec.steps)
                .map(|s| pick(s, &tire.evaluate(&slip(conditions.at(fz), s))))
                .collect::<Vec<_>>()
        };
    let load_label = |fz: f64| format!("Fz = {:.1} kN", fz / 1000.0);
    let per_load =
        |slip: &dyn Fn(TireInput, f64) -> TireInput,
         range: (f64, f64),
         pick: &dyn Fn(f64, &gripline_physics::tire::TireOutput) -> (f64, f64)| {
            spec.loads
                .iter()
                .map(|&fz| plot::Series {
                    label: load_label(fz),
                    points: curve(fz, slip, range, pick),
                })
                .collect::<Vec<_>>()
        };
    let lateral = per_load(&|i, a| i.with_alpha(a), spec.alpha, &|a, o| {
        (a.to_degrees(), o.fy)
    });
    let longitudinal = per_load(&|i, k| i.with_kappa(k), spec.kappa, &|k, o| (k, o.fx));
    let aligning = per_load(&|i, a| i.with_alpha(a), spec.alpha, &|a, o| {
        (a.to_degrees(), o.mz)
    });
    let ellipse_load = spec
        .loads
        .get(spec.loads.len() / 2)
        .copied()
        .unwrap_or(4000.0);
    // Constant-slip-angle curves over kappa from -1 to 1, both signs of alpha, with the
    // points packed near kappa = 0 (kappa = t^3) where the force changes fastest.
    let ellipse = [1.0f64, 2.0, 4.0, 8.0, 12.0]
        .iter()
        .map(|&alpha_deg| {
            let mut points = Vec::new();
            for sign in [1.0, -1.0] {
                let alpha = sign * alpha_deg.to_radians();
                points.extend(curve(
                    ellipse_load,
                    &|i, t| i.with_alpha(alpha).with_kappa(t * t * t),
                    (-1.0, 1.0),
                    &|_, o| (o.fx, o.fy),
                ));
                points.push((f64::NAN, f64::NAN));
            }
            plot::Series {
                label: format!("alpha = +-{alpha_deg} deg"),
                points,
            }
        })
        .collect();
    let gamma = format!("gamma = {:.1} deg", conditions.gamma.to_degrees());
    vec![
        plot::Chart {
            title: format!("Lateral force, pure side slip ({gamma})"),
            x_label: "slip angle alpha (deg)".into(),
            y_label: "Fy (N)".into(),
            series: lateral,
            equal_axes: false,
        },
        plot::Chart {
            title: "Longitudinal force, pure longitudinal slip".into(),
            x_label: "slip ratio kappa (-)".into(),
            y_label: "Fx (N)".into(),
            series: longitudinal,
            equal_axes: false,
        },
        plot::Chart {
            title: "Aligning moment, pure side slip".into(),
            x_label: "slip angle alpha (deg)".into(),
            y_label: "Mz (N m)".into(),
            series: aligning,
            equal_axes: false,
        },
        plot::Chart {
            title: format!(
                "Friction ellipse at {:.1} kN (kappa -1 to 1)",
                ellipse_load / 1000.0
            ),
            x_label: "Fx (N)".into(),
            y_label: "Fy (N)".into(),
            series: ellipse,
            equal_axes: true,
        },
    ]
}
