//! Car set-ups: what a driver adjusts in the garage, as one value ([`CarSetup`]) taken from
//! and applied to the car's parameters. The car file's own values are the default set-up
//! ([`CarSetup::of`]); every adjustable number has a range ([`SetupRanges`]), from the car
//! file's `setup_ranges` where it gives one, otherwise from the rules in
//! [`default_range`]; a value outside its range is clamped with a message.
//!
//! The tyres are part of a set-up by name (`front_tyre`, `rear_tyre`, as a vehicle file
//! names them); loading the named files is the loader's work, and whether a tyre fits an
//! axle is [`super::tyre_fit`]'s rule.
//!
//! Ride height is adjusted through the spring preload: raising the car by `h` at a wheel
//! rate `k` takes `k h` more preload (the static compression falls by `h`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::params::VehicleParams;
use crate::powertrain::{Differential, Drivetrain};

/// One axle's adjustments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AxleSetup {
    /// Cold inflation pressure (Pa, gauge).
    pub tyre_pressure_pa: f64,
    /// Static camber (deg, negative: top of the wheel inwards, on both sides; see
    /// [`crate::tire`] for the tyre's ISO inclination).
    pub camber_deg: f64,
    /// Static toe (deg, positive toe-in).
    pub toe_deg: f64,
    /// Wheel rate of the springs (N/m).
    pub spring_rate_n_per_m: f64,
    /// Ride height above the car file's (m), through the spring preload.
    pub ride_height_offset_m: f64,
    /// Slow bump damping (N·s/m).
    pub bump_damping_n_s_per_m: f64,
    /// Slow rebound damping (N·s/m).
    pub rebound_damping_n_s_per_m: f64,
    /// Fast bump damping, above the knee (N·s/m).
    pub fast_bump_damping_n_s_per_m: f64,
    /// Fast rebound damping, above the knee (N·s/m).
    pub fast_rebound_damping_n_s_per_m: f64,
    /// Anti-roll bar, as a wheel rate (N/m); 0 disconnects it.
    pub anti_roll_bar_n_per_m: f64,
    /// Downforce coefficient times area at this axle (m²).
    pub downforce_area_m2: f64,
}

impl Default for AxleSetup {
    fn default() -> Self {
        AxleSetup::of(&VehicleParams::default(), 0)
    }
}

impl AxleSetup {
    /// Axle `index` (0 front, 1 rear) of `params`, as a set-up.
    pub fn of(params: &VehicleParams, index: usize) -> Self {
        let axle = if index == 0 {
            &params.front
        } else {
            &params.rear
        };
        let s = &axle.suspension;
        Self {
            tyre_pressure_pa: axle.wheel.tyre_pressure_pa,
            camber_deg: axle.static_camber_deg,
            toe_deg: axle.static_toe_deg,
            spring_rate_n_per_m: s.spring_rate_n_per_m,
            ride_height_offset_m: 0.0,
            bump_damping_n_s_per_m: s.bump_damping_n_s_per_m,
            rebound_damping_n_s_per_m: s.rebound_damping_n_s_per_m,
            fast_bump_damping_n_s_per_m: s.fast_bump_damping_n_s_per_m,
            fast_rebound_damping_n_s_per_m: s.fast_rebound_damping_n_s_per_m,
            anti_roll_bar_n_per_m: axle.anti_roll_bar_n_per_m,
            downforce_area_m2: if index == 0 {
                params.aero.downforce_area_front_m2
            } else {
                params.aero.downforce_area_rear_m2
            },
        }
    }
}

/// A car set-up (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CarSetup {
    /// Front axle.
    pub front: AxleSetup,
    /// Rear axle.
    pub rear: AxleSetup,
    /// The front tyres, by asset name (a tyre file's stem, as a vehicle file names them).
    pub front_tyre: String,
    /// The rear tyres, by asset name.
    pub rear_tyre: String,
    /// Share of the service-brake torque at the front (0-1).
    pub brake_bias_front: f64,
    /// Service-brake torque of the whole car at full pedal (N·m): the brake pressure.
    pub brake_torque_n_m: f64,
    /// Handbrake torque (N·m).
    pub handbrake_torque_n_m: f64,
    /// Final drive ratio.
    pub final_drive: f64,
    /// Forward gear ratios, first gear first.
    pub gear_ratios: Vec<f64>,
    /// The differentials' numbers by path, for the car's kinds of differentials:
    /// `rear.preload_nm`, `rear.power_lock`, `rear.coast_lock` of a clutch pack,
    /// `centre.coefficient_nm_s_per_rad` of a viscous coupling, `front_share` of an AWD car.
    pub differentials: BTreeMap<String, f64>,
}

impl Default for CarSetup {
    fn default() -> Self {
        CarSetup::of(&VehicleParams::default())
    }
}

/// Ranges of the set-up's numbers by path (`front.spring_rate_n_per_m`, `brake_bias_front`,
/// `gear_ratios.0`, `drivetrain.rear.preload_nm`).
pub type SetupRanges = BTreeMap<String, (f64, f64)>;

impl CarSetup {
    /// The set-up `params` describe: the car file's own values.
    pub fn of(params: &VehicleParams) -> Self {
        let b = &params.brakes;
        let g = &params.powertrain.gearbox;
        Self {
            front: AxleSetup::of(params, 0),
            rear: AxleSetup::of(params, 1),
            front_tyre: params.front_tyre.clone(),
            rear_tyre: params.rear_tyre.clone(),
            brake_bias_front: b.bias_front,
            brake_torque_n_m: b.max_torque_n_m,
            handbrake_torque_n_m: b.handbrake_torque_n_m,
            final_drive: g.final_drive,
            gear_ratios: g.ratios.clone(),
            differentials: {
                let mut drivetrain = params.powertrain.drivetrain;
                drivetrain_numbers(&mut drivetrain)
                    .into_iter()
                    .map(|(k, v)| (k, *v))
                    .collect()
            },
        }
    }

    /// `params` with this set-up. Parts that do not fit the car (another number of gears,
    /// another kind of differential) are left as the car has them, with a message.
    pub fn apply_to(&self, params: &VehicleParams) -> (VehicleParams, Vec<String>) {
        let mut p = params.clone();
        let mut messages = Vec::new();
        for (axle, set) in [(&mut p.front, &self.front), (&mut p.rear, &self.rear)] {
            axle.wheel.tyre_pressure_pa = set.tyre_pressure_pa;
            axle.static_camber_deg = set.camber_deg;
            axle.static_toe_deg = set.toe_deg;
            let s = &mut axle.suspension;
            s.spring_rate_n_per_m = set.spring_rate_n_per_m;
            s.spring_preload_n =
                (s.spring_preload_n + set.spring_rate_n_per_m * set.ride_height_offset_m).max(0.0);
            s.bump_damping_n_s_per_m = set.bump_damping_n_s_per_m;
            s.rebound_damping_n_s_per_m = set.rebound_damping_n_s_per_m;
            s.fast_bump_damping_n_s_per_m = set.fast_bump_damping_n_s_per_m;
            s.fast_rebound_damping_n_s_per_m = set.fast_rebound_damping_n_s_per_m;
            axle.anti_roll_bar_n_per_m = set.anti_roll_bar_n_per_m;
        }
        p.front_tyre.clone_from(&self.front_tyre);
        p.rear_tyre.clone_from(&self.rear_tyre);
        p.aero.downforce_area_front_m2 = self.front.downforce_area_m2;
        p.aero.downforce_area_rear_m2 = self.rear.downforce_area_m2;
        p.brakes.bias_front = self.brake_bias_front;
        p.brakes.max_torque_n_m = self.brake_torque_n_m;
        p.brakes.handbrake_torque_n_m = self.handbrake_torque_n_m;
        p.powertrain.gearbox.final_drive = self.final_drive;
        if self.gear_ratios.len() == params.powertrain.gearbox.ratios.len() {
            p.powertrain.gearbox.ratios.clone_from(&self.gear_ratios);
        } else {
            messages.push(format!(
                "gear_ratios: {} gears, but the car has {}: the car's ratios kept",
                self.gear_ratios.len(),
                params.powertrain.gearbox.ratios.len()
            ));
        }
        let mut known = 0;
        for (path, value) in drivetrain_numbers(&mut p.powertrain.drivetrain) {
            if let Some(v) = self.differentials.get(&path) {
                *value = *v;
                known += 1;
            }
        }
        if known != self.differentials.len() {
            let mut drivetrain = params.powertrain.drivetrain;
            let car: Vec<String> = drivetrain_numbers(&mut drivetrain)
                .into_iter()
                .map(|(k, _)| k)
                .collect();
            for path in self.differentials.keys().filter(|k| !car.contains(k)) {
                messages.push(format!(
                    "differentials.{path}: this car's differentials have no such setting"
                ));
            }
        }
        (p, messages)
    }

    /// Every adjustable number with its path, for ranges, clamping and the garage.
    pub fn numbers_mut(&mut self) -> Vec<(String, &mut f64)> {
        let mut out: Vec<(String, &mut f64)> = Vec::new();
        for (axle, set) in [("front", &mut self.front), ("rear", &mut self.rear)] {
            for (name, value) in [
                ("tyre_pressure_pa", &mut set.tyre_pressure_pa),
                ("camber_deg", &mut set.camber_deg),
                ("toe_deg", &mut set.toe_deg),
                ("spring_rate_n_per_m", &mut set.spring_rate_n_per_m),
                ("ride_height_offset_m", &mut set.ride_height_offset_m),
                ("bump_damping_n_s_per_m", &mut set.bump_damping_n_s_per_m),
                (
                    "rebound_damping_n_s_per_m",
                    &mut set.rebound_damping_n_s_per_m,
                ),
                (
                    "fast_bump_damping_n_s_per_m",
                    &mut set.fast_bump_damping_n_s_per_m,
                ),
                (
                    "fast_rebound_damping_n_s_per_m",
                    &mut set.fast_rebound_damping_n_s_per_m,
                ),
                ("anti_roll_bar_n_per_m", &mut set.anti_roll_bar_n_per_m),
                ("downforce_area_m2", &mut set.downforce_area_m2),
            ] {
                out.push((format!("{axle}.{name}"), value));
            }
        }
        out.push(("brake_bias_front".into(), &mut self.brake_bias_front));
        out.push(("brake_torque_n_m".into(), &mut self.brake_torque_n_m));
        out.push((
            "handbrake_torque_n_m".into(),
            &mut self.handbrake_torque_n_m,
        ));
        out.push(("final_drive".into(), &mut self.final_drive));
        for (i, r) in self.gear_ratios.iter_mut().enumerate() {
            out.push((format!("gear_ratios.{i}"), r));
        }
        for (path, value) in &mut self.differentials {
            out.push((format!("differentials.{path}"), value));
        }
        out
    }

    /// Clamps every number into its range (`ranges` first, then [`default_range`] around
    /// the car's value in `car`), and replaces non-finite ones by the car's value. Returns a
    /// message per change.
    pub fn clamp(&mut self, car: &CarSetup, ranges: &SetupRanges) -> Vec<String> {
        let mut reference = car.clone();
        let car_values: BTreeMap<String, f64> = reference
            .numbers_mut()
            .into_iter()
            .map(|(k, v)| (k, *v))
            .collect();
        let mut messages = Vec::new();
        for (path, value) in self.numbers_mut() {
            let Some(&car_value) = car_values.get(&path) else {
                continue;
            };
            let (lo, hi) = ranges
                .get(&path)
                .copied()
                .unwrap_or_else(|| default_range(&path, car_value));
            if !value.is_finite() {
                messages.push(format!("{path}: not a number: the car's {car_value} used"));
                *value = car_value;
            } else if *value < lo || *value > hi {
                let clamped = value.clamp(lo, hi);
                messages.push(format!(
                    "{path}: {} is outside {lo} to {hi}: clamped to {clamped}",
                    *value
                ));
                *value = clamped;
            }
        }
        messages
    }

    /// The range of `path` for `car` (its `ranges`, else the default rule).
    pub fn range_of(path: &str, car: &CarSetup, ranges: &SetupRanges) -> Option<(f64, f64)> {
        if let Some(r) = ranges.get(path) {
            return Some(*r);
        }
        let mut reference = car.clone();
        reference
            .numbers_mut()
            .into_iter()
            .find(|(k, _)| k == path)
            .map(|(_, v)| default_range(path, *v))
    }
}

/// The adjustable numbers of a drivetrain by path (`front_share`, `rear.preload_nm`...).
pub fn drivetrain_numbers(drivetrain: &mut Drivetrain) -> Vec<(String, &mut f64)> {
    let mut out = Vec::new();
    match drivetrain {
        Drivetrain::Fwd { front } => push_differential("front", front, &mut out),
        Drivetrain::Rwd { rear } => push_differential("rear", rear, &mut out),
        Drivetrain::Awd {
            centre,
            front_share,
            front,
            rear,
        } => {
            out.push(("front_share".to_owned(), front_share));
            push_differential("centre", centre, &mut out);
            push_differential("front", front, &mut out);
            push_differential("rear", rear, &mut out);
        }
    }
    out
}

/// Adds the adjustable numbers of differential `d`, named `NAME.…`.
fn push_differential<'a>(
    name: &str,
    d: &'a mut Differential,
    out: &mut Vec<(String, &'a mut f64)>,
) {
    match d {
        Differential::ClutchPack {
            preload_nm,
            power_lock,
            coast_lock,
        } => {
            out.push((format!("{name}.preload_nm"), preload_nm));
            out.push((format!("{name}.power_lock"), power_lock));
            out.push((format!("{name}.coast_lock"), coast_lock));
        }
        Differential::Viscous {
            coefficient_nm_s_per_rad,
        } => out.push((
            format!("{name}.coefficient_nm_s_per_rad"),
            coefficient_nm_s_per_rad,
        )),
        Differential::Open | Differential::Locked => {}
    }
}

/// The range of a set-up number the car file gives none for, from the car's own value `v`:
/// what a garage of a road or club car typically allows.
///
/// | number | range |
/// |---|---|
/// | tyre pressure | 1.4 to 3.2 bar |
/// | camber | -5° to +1° |
/// | toe | -1° to +1° |
/// | ride height | -30 mm to +30 mm |
/// | springs, dampers | half to twice the car's |
/// | anti-roll bars | 0 (disconnected) to three times the car's |
/// | downforce | half to 1.5 times the car's (none: fixed) |
/// | brake bias | 0.40 to 0.80 front |
/// | brake torque | 0.6 to 1.2 times the car's |
/// | handbrake | 0 to 1.5 times the car's |
/// | final drive | 0.75 to 1.3 times the car's |
/// | gear ratios | 0.8 to 1.25 times the car's |
/// | clutch-pack preload | 0 to three times the car's plus 100 N·m |
/// | locks | 0 to 1 |
/// | viscous coefficient | a quarter to four times the car's |
/// | centre split (`front_share`) | 0.2 to 0.8 front |
pub fn default_range(path: &str, v: f64) -> (f64, f64) {
    let field = path.rsplit('.').next().unwrap_or(path);
    let scaled = |lo: f64, hi: f64| {
        let (a, b) = (v * lo, v * hi);
        (a.min(b), a.max(b))
    };
    if path.starts_with("gear_ratios.") {
        return scaled(0.8, 1.25);
    }
    match field {
        "tyre_pressure_pa" => (1.4e5, 3.2e5),
        "camber_deg" => (-5.0, 1.0),
        "toe_deg" => (-1.0, 1.0),
        "ride_height_offset_m" => (-0.03, 0.03),
        "anti_roll_bar_n_per_m" => (0.0, (3.0 * v).max(1.0)),
        "downforce_area_m2" => scaled(0.5, 1.5),
        "brake_bias_front" => (0.4, 0.8),
        "brake_torque_n_m" => scaled(0.6, 1.2),
        "handbrake_torque_n_m" => scaled(0.0, 1.5),
        "final_drive" => scaled(0.75, 1.3),
        "preload_nm" => (0.0, 3.0 * v + 100.0),
        "power_lock" | "coast_lock" => (0.0, 1.0),
        "front_share" => (0.2, 0.8),
        // Springs, dampers, viscous couplings.
        "coefficient_nm_s_per_rad" => scaled(0.25, 4.0),
        _ => scaled(0.5, 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_car_files_values_are_the_default_set_up() {
        let params = VehicleParams::default();
        let setup = CarSetup::of(&params);
        let (back, messages) = setup.apply_to(&params);
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(back, params);
        let mut s = setup.clone();
        assert!(s.clamp(&setup, &SetupRanges::new()).is_empty());
    }

    #[test]
    fn out_of_range_values_are_clamped_with_a_message() {
        let car = CarSetup::default();
        let mut s = car.clone();
        s.brake_bias_front = 0.95;
        s.front.spring_rate_n_per_m = f64::NAN;
        s.rear.camber_deg = -9.0;
        let mut ranges = SetupRanges::new();
        ranges.insert("brake_bias_front".into(), (0.5, 0.75));
        let messages = s.clamp(&car, &ranges);
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!((s.brake_bias_front - 0.75).abs() < 1e-12);
        assert!(
            messages[2].contains("brake_bias_front: 0.95 is outside 0.5 to 0.75"),
            "{messages:?}"
        );
        assert!((s.front.spring_rate_n_per_m - car.front.spring_rate_n_per_m).abs() < 1e-9);
        assert!((s.rear.camber_deg + 5.0).abs() < 1e-12);
    }

    #[test]
    fn ride_height_goes_through_the_preload() {
        let params = VehicleParams::default();
        let mut s = CarSetup::of(&params);
        s.front.ride_height_offset_m = 0.01;
        let (p, _) = s.apply_to(&params);
        let k = params.front.suspension.spring_rate_n_per_m;
        let added = p.front.suspension.spring_preload_n - params.front.suspension.spring_preload_n;
        assert!((added - 0.01 * k).abs() < 1e-9);
    }

    #[test]
    fn parts_that_do_not_fit_the_car_are_kept_with_a_message() {
        let params = VehicleParams::default();
        let mut s = CarSetup::of(&params);
        s.gear_ratios.pop();
        s.differentials.insert("centre.preload_nm".into(), 40.0);
        let (p, messages) = s.apply_to(&params);
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert_eq!(
            p.powertrain.gearbox.ratios,
            params.powertrain.gearbox.ratios
        );
        assert_eq!(p.powertrain.drivetrain, params.powertrain.drivetrain);
    }
}
