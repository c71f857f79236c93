//! Whole-vehicle tests: statics, standstill, dynamics against reference figures, symmetry,
//! determinism, robustness. Figures quoted in the assertions come from outside the model
//! (the static split of the weight, the bicycle model, the coast-down force balance).

#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::float_cmp
)]

mod dynamics;
mod ground_contact;
mod load_transfer;
mod quarter_car;
mod robustness;
mod solids;
mod statics;
mod thermal;
mod tread_relaxation;
mod walls;

use glam::DVec3;

use crate::controls::Controls;
use crate::ground::{FlatGround, Ground, GroundHit, Surface};
use crate::powertrain::GearboxMode;
use crate::tire::{SimplifiedPacejka, Tire};
use crate::vehicle::{Vehicle, VehicleParams};

/// Physics step of the real-time loop (s).
pub(super) const DT: f64 = 0.001;

/// Workshop III's simplified Pacejka (Wolfe) on both axles.
pub(super) fn simple_tires() -> [Tire; 2] {
    [
        Tire::SimplifiedPacejka(SimplifiedPacejka::default()),
        Tire::SimplifiedPacejka(SimplifiedPacejka::default()),
    ]
}

/// The default Corvette on simplified Pacejka tyres.
pub(super) fn car() -> Vehicle {
    Vehicle::new(VehicleParams::default(), simple_tires()).expect("valid vehicle")
}

/// Puts the gearbox in neutral and keeps it there (sequential mode: the automatic would
/// pick a gear again), for tests of the chassis and tyres without the engine.
pub(super) fn coast_in_neutral(v: &mut Vehicle) {
    v.powertrain_mut().set_mode(GearboxMode::Sequential);
    v.powertrain_mut().set_gear(0);
}

/// Runs `seconds` of constant controls.
pub(super) fn run(
    v: &mut Vehicle,
    controls: &Controls,
    ground: &impl Ground,
    seconds: f64,
    dt: f64,
) {
    let steps = (seconds / dt).round() as usize;
    for _ in 0..steps {
        v.step(controls, ground, dt);
    }
}

/// Ramp the steering wheel to `wheel_rad` over 1 s at `speed`, then hold for 4 s.
pub(super) fn steady_turn(v: &mut Vehicle, speed: f64, wheel_rad: f64, dt: f64) {
    let g = FlatGround::default();
    // Coasting in neutral: the handling tests measure the chassis and tyres, not the engine.
    coast_in_neutral(v);
    v.set_forward_speed(speed);
    run(v, &Controls::default(), &g, 0.5, dt);
    let steps = (1.0 / dt).round() as usize;
    for i in 0..steps {
        let c = Controls {
            steering_wheel_rad: wheel_rad * (i + 1) as f64 / steps as f64,
            ..Controls::default()
        };
        v.step(&c, &g, dt);
    }
    let c = Controls {
        steering_wheel_rad: wheel_rad,
        ..Controls::default()
    };
    run(v, &c, &g, 4.0, dt);
}

/// An infinite inclined plane through the origin with upward unit normal `normal`.
#[derive(Clone, Copy, Debug)]
pub(super) struct TiltedPlane {
    pub normal: DVec3,
}

impl TiltedPlane {
    /// A plane rising along world +x with the given grade (rise over run).
    pub fn grade_along_x(grade: f64) -> Self {
        Self {
            normal: DVec3::new(-grade, 0.0, 1.0).normalize(),
        }
    }
}

impl Ground for TiltedPlane {
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        let height = origin.dot(self.normal);
        let approach = -direction.dot(self.normal);
        if height < 0.0 || approach <= 1e-12 {
            return None;
        }
        let distance = height / approach;
        (distance <= max_distance).then(|| GroundHit {
            point: origin + direction * distance,
            normal: self.normal,
            distance,
            surface: Surface::Asphalt,
        })
    }
}
