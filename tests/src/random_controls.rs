//! Random driver inputs for robustness soaks: a small deterministic generator (a 64-bit linear
//! congruential generator with Knuth's MMIX constants) and the controls a careless or hostile
//! driver could give, every field over its whole range. Shared by the vehicle robustness soak
//! (`tests/tests/it/vehicle_robustness.rs`) and the closed-world drives of the shipped tracks
//! (`sim/tests/it/closed_own_tracks.rs`), so both draw the same inputs from the same seed.

use gripline_physics::controls::Controls;

/// A deterministic stream of random driver inputs.
#[derive(Clone, Debug)]
pub struct RandomControls(u64);

impl RandomControls {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next number, uniform in [0, 1) with 53 bits.
    pub fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Random controls: the steering wheel anywhere in ±6 rad, any throttle, the brake 30 % of
    /// the time, clutch and handbrake 10 %, a shift request up or down 10 % each, an H-pattern
    /// gear from -1 (reverse) to 7 (beyond every gearbox: the shifter must refuse it) half of
    /// the time, the starter 5 %.
    pub fn controls(&mut self) -> Controls {
        Controls {
            steering_wheel_rad: (self.unit() - 0.5) * 12.0,
            throttle: self.unit(),
            brake: if self.unit() < 0.3 { self.unit() } else { 0.0 },
            clutch: if self.unit() < 0.1 { 1.0 } else { 0.0 },
            handbrake: if self.unit() < 0.1 { 1.0 } else { 0.0 },
            shift_up: self.unit() < 0.1,
            shift_down: self.unit() < 0.1,
            h_gear: if self.unit() < 0.5 {
                None
            } else {
                // 0 <= unit < 1: the floor is 0 to 8, exactly representable.
                #[allow(clippy::cast_possible_truncation)]
                Some((self.unit() * 9.0).floor() as i8 - 1)
            },
            starter: self.unit() < 0.05,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RandomControls;

    #[test]
    fn the_same_seed_draws_the_same_controls_and_every_gear_comes_up() {
        let (mut a, mut b) = (RandomControls::new(7), RandomControls::new(7));
        let mut gears = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            let (ca, cb) = (a.controls(), b.controls());
            assert_eq!(format!("{ca:?}"), format!("{cb:?}"));
            assert!((-6.0..6.0).contains(&ca.steering_wheel_rad));
            assert!((0.0..1.0).contains(&ca.throttle));
            gears.extend(ca.h_gear);
        }
        assert_eq!(
            gears.into_iter().collect::<Vec<_>>(),
            (-1..=7).collect::<Vec<i8>>()
        );
    }
}
