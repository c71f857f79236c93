//! Relaxation lengths that follow the load, from the tyre's carcass stiffnesses.
//!
//! In the tread-deflection model of [`super::wheel`] the contact patch sits on a spring of
//! stiffness `C / σ` (slip stiffness over relaxation length): that spring is the tyre's
//! carcass. A Magic Formula file states the carcass stiffnesses (`LONGITUDINAL_STIFFNESS`,
//! `LATERAL_STIFFNESS`, N/m, MF 6.1/6.2 `[STRUCTURAL]`), so the relaxation lengths follow as
//! `σκ = Kxκ(Fz) / Cx` and `σα = Kyα(Fz) / Cy` (Pacejka, *Tyre and Vehicle Dynamics*, 3rd ed.,
//! §7.2, the single-point contact model): longer at higher load while the slip stiffness rises,
//! shorter where it saturates. The slip stiffnesses are the tyre model's own, taken once at
//! construction at [`TABLE_POINTS`] loads and interpolated linearly in the step.
//!
//! An MF 5.2 file states its relaxation lengths by load itself (`PTX*`, `PTY*`): those are
//! taken as they are. A length given in the vehicle file wins; a tyre with neither (the other
//! five families) uses [`DEFAULT_LONGITUDINAL_M`] and [`DEFAULT_LATERAL_M`].

use crate::tire::{Tire, TireInput, TireModel};

use super::params::WheelParams;

/// Longitudinal relaxation length without a file's value or carcass data (m).
pub const DEFAULT_LONGITUDINAL_M: f64 = 0.15;
/// Lateral relaxation length without a file's value or carcass data (m).
pub const DEFAULT_LATERAL_M: f64 = 0.35;
/// Loads at which the slip stiffnesses are tabulated.
pub const TABLE_POINTS: usize = 12;
/// The table spans this multiple of the static wheel load (from a twentieth of it).
const TABLE_SPAN: f64 = 3.0;
/// Shortest and longest relaxation length the carcass data may give (m): bounds a fit's
/// stiffness that vanishes or explodes at the table's ends.
const LENGTH_RANGE_M: (f64, f64) = (0.02, 2.0);

/// A tyre's relaxation lengths (m) at one load (zero by default: no tyre).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RelaxationLengths {
    /// `σκ`, for the slip ratio (m).
    pub longitudinal_m: f64,
    /// `σα`, for the slip angle (m).
    pub lateral_m: f64,
}

/// The relaxation lengths of one corner's tyre as a function of its load.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelaxationTable {
    /// Tabulated loads (N), rising.
    loads_n: [f64; TABLE_POINTS],
    /// The lengths at those loads.
    lengths: [RelaxationLengths; TABLE_POINTS],
}

impl RelaxationTable {
    /// The lengths for `wheel` on `tire` around the static wheel load `static_load_n`: the
    /// vehicle file's value where it gives one, else the tyre file's own (MF 5.2), else from
    /// the tyre's carcass stiffness (its slip stiffnesses taken rolling at `speed_m_per_s`),
    /// else the defaults.
    #[must_use]
    pub fn new(wheel: &WheelParams, tire: &Tire, static_load_n: f64, speed_m_per_s: f64) -> Self {
        let carcass = tire.carcass_stiffness_n_per_m();
        let load_at = |k: usize| {
            #[allow(clippy::cast_precision_loss)]
            let t = k as f64 / (TABLE_POINTS - 1) as f64;
            static_load_n * (0.05 + t * (TABLE_SPAN - 0.05))
        };
        let loads_n = std::array::from_fn(load_at);
        let lengths = std::array::from_fn(|k| {
            let stated = tire
                .stated_relaxation_lengths_m(loads_n[k])
                .and_then(|(x, y)| Some((bounded(x)?, bounded(y)?)));
            let from_carcass = stated.or_else(|| {
                carcass.and_then(|(cx, cy)| {
                    let (kx, ky) =
                        slip_stiffnesses(tire, loads_n[k], wheel.tyre_pressure_pa, speed_m_per_s);
                    Some((bounded(kx / cx)?, bounded(ky / cy)?))
                })
            });
            RelaxationLengths {
                longitudinal_m: wheel
                    .relaxation_length_longitudinal_m
                    .or(from_carcass.map(|l| l.0))
                    .unwrap_or(DEFAULT_LONGITUDINAL_M),
                lateral_m: wheel
                    .relaxation_length_lateral_m
                    .or(from_carcass.map(|l| l.1))
                    .unwrap_or(DEFAULT_LATERAL_M),
            }
        });
        Self { loads_n, lengths }
    }

    /// The lengths at load `fz` (N): linear between the tabulated loads, held beyond them.
    #[must_use]
    pub fn at(&self, fz: f64) -> RelaxationLengths {
        let n = TABLE_POINTS;
        // Below the table, or not a number: the lightest load's lengths.
        if fz.is_nan() || fz <= self.loads_n[0] {
            return self.lengths[0];
        }
        if fz >= self.loads_n[n - 1] {
            return self.lengths[n - 1];
        }
        let k = self.loads_n.partition_point(|&l| l <= fz).clamp(1, n - 1);
        let (l0, l1) = (self.loads_n[k - 1], self.loads_n[k]);
        let t = (fz - l0) / (l1 - l0);
        let (a, b) = (self.lengths[k - 1], self.lengths[k]);
        RelaxationLengths {
            longitudinal_m: a.longitudinal_m + t * (b.longitudinal_m - a.longitudinal_m),
            lateral_m: a.lateral_m + t * (b.lateral_m - a.lateral_m),
        }
    }
}

/// The tyre's slip stiffness `dFx/dκ` and cornering stiffness `-dFy/dα` (N, N/rad) at zero
/// slip and load `fz` and `pressure`, rolling at `speed`, by central differences (not checked:
/// a model may give zero or a non-finite slope). The one place the vehicle measures them:
/// also [`super::wheel::tyre_figures`].
#[must_use]
pub fn slip_stiffnesses(tire: &Tire, fz: f64, pressure: f64, speed: f64) -> (f64, f64) {
    let base = TireInput {
        pressure,
        ..TireInput::rolling(fz, speed)
    };
    let h = 1e-4;
    let kx = (tire.evaluate(&base.with_kappa(h)).fx - tire.evaluate(&base.with_kappa(-h)).fx)
        / (2.0 * h);
    let ky = -(tire.evaluate(&base.with_alpha(h)).fy - tire.evaluate(&base.with_alpha(-h)).fy)
        / (2.0 * h);
    (kx, ky)
}

/// `length` when finite and within [`LENGTH_RANGE_M`].
fn bounded(length: f64) -> Option<f64> {
    (length.is_finite() && (LENGTH_RANGE_M.0..=LENGTH_RANGE_M.1).contains(&length))
        .then_some(length)
}
