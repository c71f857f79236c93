//! Steering: steering-wheel angle to road-wheel angles (ratio, lock, Ackermann), and the
//! steering-column torque that drives force feedback.
//!
//! # Signs
//!
//! - Angles are positive counter-clockwise seen from above: a positive steering-wheel angle
//!   (wheel turned left, as in [`crate::controls::Controls`]) gives positive road-wheel angles
//!   and a left turn.
//! - Column torque is positive when it turns the steering wheel counter-clockwise (left).
//!
//! # Column torque
//!
//! The road's moment about each front wheel's kingpin axis, positive turning the wheel left,
//! is ([`crate::vehicle::kingpin`], which derives it)
//!
//! ```text
//! M_kp = e_z (Mz - t_m Fy - s r_s Fx) + M_v(δ, Fz)
//! ```
//!
//! with `Mz`, `Fy`, `Fx` in the wheel's ISO-W contact frame, `t_m` the mechanical trail (the
//! contact centre lies `t_m` behind the kingpin's ground point, so a lateral force `Fy` there
//! has the moment `-t_m Fy`), `r_s` the scrub radius, `s = +1` for the left wheel, `-1` for
//! the right (the contact centre lies `r_s` outboard of the kingpin), `e_z` the cosine of the
//! axis' lean, and `M_v` the moment of the tyre load `Fz` as the steered wheel lifts the car
//! through caster and kingpin inclination, `≈ -Fz d sin σ sin δ` with `d` the spindle length
//! (centring at any speed, parking included). The column sees
//!
//! ```text
//! T_column = (1 - power_assist) * efficiency * (M_kp,left + M_kp,right) / ratio
//! ```
//!
//! by virtual work through the rack (`d(road angle) = d(wheel angle) / ratio`); the power
//! assistance carries the share `power_assist` of the rack's load, so the driver's hands feel
//! the rest. In a left turn the front tyres push left (`Fy > 0`) at negative slip angles with
//! negative `Mz`, so `T_column < 0`: it turns the wheel back to the right, i.e. it
//! self-centres. With neither caster nor inclination, `e_z = 1` and `M_v = 0`: the vertical
//! kingpin of earlier versions, bit for bit.

use super::kingpin::{KingpinAxis, KingpinLoads};
use super::params::SteeringParams;
use crate::tire::TireOutput;

/// Where the steering stands this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SteeringAngles {
    /// Steering-wheel angle after the lock (rad).
    pub steering_wheel_rad: f64,
    /// Road-wheel steer angles `[left, right]` (rad), without toe.
    pub road_wheels_rad: [f64; 2],
}

impl SteeringParams {
    /// Steering-wheel lock each side (rad).
    pub fn lock_rad(&self) -> f64 {
        self.lock_deg.to_radians()
    }

    /// The steering-wheel angle after the lock (rad).
    pub fn clamp_to_lock(&self, steering_wheel_rad: f64) -> f64 {
        let lock = self.lock_rad();
        steering_wheel_rad.clamp(-lock, lock)
    }

    /// The steering-wheel angle after the lock and the road-wheel angles it gives
    /// ([`SteeringParams::road_wheel_angles`]) for the driver's `steering_wheel_rad`, on a car
    /// of `wheelbase` and front `track` (m).
    pub fn angles(&self, steering_wheel_rad: f64, wheelbase: f64, track: f64) -> SteeringAngles {
        let steering_wheel = self.clamp_to_lock(steering_wheel_rad);
        SteeringAngles {
            steering_wheel_rad: steering_wheel,
            road_wheels_rad: self.road_wheel_angles(steering_wheel, wheelbase, track),
        }
    }

    /// Road-wheel steer angles `[left, right]` (rad) for a steering-wheel angle (rad, clamped
    /// to the lock), for a car of `wheelbase` and front `track` (m).
    ///
    /// The mean angle is `wheel / ratio`. Full Ackermann geometry steers the inner wheel to
    /// `atan(L / (R - t/2))` and the outer to `atan(L / (R + t/2))` about the turn centre on
    /// the rear axle line at `R = L / tan(mean)`; `ackermann` blends between parallel steer
    /// (0) and that geometry (1). Computed on the magnitude and signed afterwards, so left and
    /// right turns are exact mirror images.
    pub fn road_wheel_angles(
        &self,
        steering_wheel_rad: f64,
        wheelbase: f64,
        track: f64,
    ) -> [f64; 2] {
        let wheel = self.clamp_to_lock(steering_wheel_rad);
        let mean = wheel.abs() / self.ratio;
        if mean < 1e-12 {
            return [0.0, 0.0];
        }
        let radius = wheelbase / mean.tan();
        let inner_full = wheelbase.atan2(radius - 0.5 * track);
        let outer_full = wheelbase.atan2(radius + 0.5 * track);
        let inner = mean + self.ackermann * (inner_full - mean);
        let outer = mean + self.ackermann * (outer_full - mean);
        if wheel > 0.0 {
            // Left turn: the left wheel is on the inside.
            [inner, outer]
        } else {
            [-outer, -inner]
        }
    }

    /// Mechanical trail at the ground (m) for a front wheel of loaded radius `wheel_radius_m`:
    /// `mechanical_trail_m` where the file gives it, else `R tan(caster)` (hub on the axis).
    pub fn trail_m(&self, wheel_radius_m: f64) -> f64 {
        self.mechanical_trail_m
            .unwrap_or_else(|| wheel_radius_m * self.caster_deg.to_radians().tan())
    }

    /// Steering-column torque (N·m, positive turning the steering wheel left) from the front
    /// wheels' `[left, right]` steer angles, tyre forces, loads and aligning moments, for front
    /// wheels of loaded radius `wheel_radius_m` (see the module docs).
    pub fn column_torque(&self, wheel_radius_m: f64, wheels: &[KingpinLoads; 2]) -> f64 {
        let axis = KingpinAxis::of(self, wheel_radius_m);
        let left = axis.moment(1.0, &wheels[0]);
        let right = axis.moment(-1.0, &wheels[1]);
        (1.0 - self.power_assist) * self.efficiency * (left + right) / self.ratio
    }

    /// [`SteeringParams::column_torque`] of the tyre forces of wheels `[FL, FR, RL, RR]` (the
    /// front two steer, by `road_wheels_rad` without toe) with tyre loads `loads_n`, zero when
    /// it is not finite.
    pub fn front_column_torque(
        &self,
        wheel_radius_m: f64,
        road_wheels_rad: [f64; 2],
        forces: &[TireOutput; 4],
        loads_n: &[f64; 4],
    ) -> f64 {
        let wheel = |i: usize| KingpinLoads {
            steer_rad: road_wheels_rad[i],
            fx: forces[i].fx,
            fy: forces[i].fy,
            fz: loads_n[i].max(0.0),
            mz: forces[i].mz,
        };
        let column = self.column_torque(wheel_radius_m, &[wheel(0), wheel(1)]);
        if column.is_finite() { column } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::params::VehicleParams;

    #[test]
    fn ratio_lock_and_ackermann() {
        let p = VehicleParams::default();
        let s = &p.steering;
        let (l, t) = (p.chassis.wheelbase_m, p.front.track_m);
        // Parallel steer at 0 % Ackermann: both wheels at wheel / ratio.
        let mut parallel = s.clone();
        parallel.ackermann = 0.0;
        let [a, b] = parallel.road_wheel_angles(1.0, l, t);
        assert!((a - 1.0 / 16.1).abs() < 1e-15 && (b - 1.0 / 16.1).abs() < 1e-15);
        // Lock clamps: 450 deg of wheel.
        let [a, _] = parallel.road_wheel_angles(100.0, l, t);
        assert!((a - 450f64.to_radians() / 16.1).abs() < 1e-12);
        // Full Ackermann: both wheels' axes meet on the rear axle line.
        let mut full = s.clone();
        full.ackermann = 1.0;
        let [inner, outer] = full.road_wheel_angles(3.0, l, t);
        assert!(inner > outer);
        let r_inner = l / inner.tan() + 0.5 * t;
        let r_outer = l / outer.tan() - 0.5 * t;
        assert!((r_inner - r_outer).abs() < 1e-9, "{r_inner} vs {r_outer}");
        // Mirror symmetry is exact.
        let [li, ri] = s.road_wheel_angles(2.0, l, t);
        let [lo, ro] = s.road_wheel_angles(-2.0, l, t);
        assert_eq!(li.to_bits(), (-ro).to_bits());
        assert_eq!(ri.to_bits(), (-lo).to_bits());
    }

    /// A tyre with forces only in the ground plane, for [`SteeringParams::column_torque`].
    fn ground(fx: f64, fy: f64, mz: f64) -> KingpinLoads {
        KingpinLoads {
            fx,
            fy,
            mz,
            ..KingpinLoads::default()
        }
    }

    #[test]
    fn column_torque_self_centres_in_a_left_turn() {
        let mut s = VehicleParams::default().steering;
        s.caster_deg = 0.0;
        s.kingpin_inclination_deg = 0.0;
        // Left turn: lateral forces to the left, aligning moments negative (slip angle < 0).
        let t = s.column_torque(
            0.32,
            &[ground(0.0, 3000.0, -60.0), ground(0.0, 2500.0, -50.0)],
        );
        assert!(t < 0.0);
        let expected = 0.9 * (-110.0 - 0.03 * 5500.0) / 16.1;
        assert!((t - expected).abs() < 1e-12);
        // Equal braking forces: the scrub-radius moments cancel.
        let braking = s.column_torque(0.32, &[ground(-2000.0, 0.0, 0.0); 2]);
        assert!(braking.abs() < 1e-12);
        // Power assistance carries its share.
        s.power_assist = 0.75;
        let assisted = s.column_torque(
            0.32,
            &[ground(0.0, 3000.0, -60.0), ground(0.0, 2500.0, -50.0)],
        );
        assert!((assisted - 0.25 * expected).abs() < 1e-12);
    }

    /// The column torque against the hand formula of `kingpin`'s docs written out again, for
    /// one set of forces, loads and steer angles on an inclined axis (within 1e-9 relative);
    /// the small-angle textbook moment agrees within 5 %.
    #[test]
    fn column_torque_matches_the_kingpin_moment_formula() {
        let mut s = VehicleParams::default().steering;
        s.caster_deg = 7.0;
        s.kingpin_inclination_deg = 11.0;
        s.mechanical_trail_m = Some(0.03);
        s.scrub_radius_m = 0.01;
        s.power_assist = 0.5;
        let r = 0.326;
        let wheels = [
            KingpinLoads {
                steer_rad: 0.12,
                fx: 800.0,
                fy: 3000.0,
                fz: 3500.0,
                mz: -60.0,
            },
            KingpinLoads {
                steer_rad: 0.10,
                fx: 600.0,
                fy: 4000.0,
                fz: 4800.0,
                mz: -70.0,
            },
        ];
        let (tc, ti) = (7f64.to_radians().tan(), 11f64.to_radians().tan());
        let n = (1.0 + tc * tc + ti * ti).sqrt();
        let (kc, ki, ez) = (tc / n, ti / n, 1.0 / n);
        let (t, rs) = (0.03, 0.01);
        let hand = |side: f64, w: &KingpinLoads| {
            let d = w.steer_rad;
            // Wheel centre height and its slope; spin-axis rise and its slope.
            let cross = -side * (kc * rs + ki * t);
            let dot = kc * t - ki * rs + ez * r;
            let wz_slope = -r * d.sin() + cross * d.cos() + ez * dot * d.sin();
            let az = -side * kc * d.sin() - ez * ki * (1.0 - d.cos());
            let az_slope = -side * kc * d.cos() - ez * ki * d.sin();
            let h_slope = wz_slope + r * az * az_slope / (1.0 - az * az).sqrt();
            ez * (w.mz - t * w.fy - side * rs * w.fx) + w.fz * h_slope
        };
        let expected = 0.5 * 0.9 * (hand(1.0, &wheels[0]) + hand(-1.0, &wheels[1])) / 16.1;
        let got = s.column_torque(r, &wheels);
        assert!((got / expected - 1.0).abs() < 1e-9, "{got} vs {expected}");
        // Small-angle textbook form, per wheel:
        // -s Fz (r_s sin c + t sin k) cos d - Fz (d_s sin k - t sin c) sin d + Mz - t Fy - s r_s Fx
        // with d_s = r_s + R tan k the spindle length.
        let (sc, sk) = (7f64.to_radians().sin(), 11f64.to_radians().sin());
        let spindle = rs + r * ti;
        let small = |side: f64, w: &KingpinLoads| {
            let d = w.steer_rad;
            -side * w.fz * (rs * sc + t * sk) * d.cos() - w.fz * (spindle * sk - t * sc) * d.sin()
                + w.mz
                - t * w.fy
                - side * rs * w.fx
        };
        let approx = 0.5 * 0.9 * (small(1.0, &wheels[0]) + small(-1.0, &wheels[1])) / 16.1;
        assert!((got / approx - 1.0).abs() < 0.05, "{got} vs {approx}");
    }

    /// Parking: the car standing with the wheel turned either way and the tyres giving no
    /// force, the tyre loads alone centre the steering through kingpin inclination (with the
    /// C5's caster and inclination); with neither the column torque is exactly zero.
    #[test]
    fn tyre_loads_centre_the_steering_at_parking_speed() {
        let p = VehicleParams::default();
        let (l, tr) = (p.chassis.wheelbase_m, p.front.track_m);
        let fz = p.static_wheel_load_n(0);
        let r = p.front.wheel.radius_m;
        let loads = |s: &SteeringParams, wheel: f64| {
            let [a, b] = s.road_wheel_angles(wheel, l, tr);
            let at = |steer_rad| KingpinLoads {
                steer_rad,
                fz,
                ..KingpinLoads::default()
            };
            s.column_torque(r, &[at(a), at(b)])
        };
        let mut s = p.steering.clone();
        s.caster_deg = 7.0;
        s.kingpin_inclination_deg = 11.0;
        for wheel in [-6.0, -1.5, -0.3, 0.3, 1.5, 6.0] {
            let t = loads(&s, wheel);
            assert!(t * wheel < 0.0, "{wheel}: {t}");
            // Small angles, equal loads: -2 Fz (d sin k - t sin c) delta eta / ratio.
            if f64::abs(wheel) < 2.0 {
                let spindle = s.scrub_radius_m + r * 11f64.to_radians().tan();
                let per_rad = 2.0
                    * fz
                    * (spindle * 11f64.to_radians().sin() - 0.03 * 7f64.to_radians().sin());
                let hand = -s.efficiency * per_rad * (wheel / s.ratio) / s.ratio;
                assert!((t / hand - 1.0).abs() < 0.06, "{wheel}: {t} vs {hand}");
            }
        }
        let mut upright = s.clone();
        upright.caster_deg = 0.0;
        upright.kingpin_inclination_deg = 0.0;
        for wheel in [-1.5, 1.5] {
            assert!(
                loads(&upright, wheel).abs() < f64::MIN_POSITIVE,
                "exactly zero"
            );
        }
    }
}
