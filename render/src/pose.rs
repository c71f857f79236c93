//! The car's pose as drawn: body pose and, per wheel, centre, steer, spin angle and travel;
//! and the transforms that place a wheel (`world_from_wheel`).
//!
//! Wheel frame: origin at the wheel centre, y along the axle pointing out of the car on the
//! left side, x forward when not steered, z up. Spin turns the wheel about its axle, positive
//! rolling forward (the top of the wheel moves towards +x). Right-hand wheels use the same
//! mesh turned half a turn about z, so their outer face points right.

use std::f64::consts::{PI, TAU};

use glam::{DMat4, DQuat, DVec3};
use gripline_physics::track::TrackMesh;
use gripline_physics::vehicle::Snapshot;

use crate::error::RenderError;
use crate::vehicle_visual::VehicleVisual;

/// One wheel as drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelPose {
    /// Wheel centre, world frame (m).
    pub centre_world: DVec3,
    /// Road-wheel steer angle (rad, positive left).
    pub steer_rad: f64,
    /// Spin angle about the axle (rad, positive rolling forward), any value.
    pub spin_angle_rad: f64,
    /// Suspension compression from full droop (m); informative, the centre already holds it.
    pub travel_m: f64,
}

/// The car as drawn: body pose and four wheels (FL, FR, RL, RR).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VehiclePose {
    /// Position of the CG, world frame (m).
    pub position: DVec3,
    /// `world_from_body` rotation.
    pub orientation: DQuat,
    /// The wheels.
    pub wheels: [WheelPose; 4],
    /// Steering-wheel angle (rad, positive left), for the cockpit view.
    pub steering_wheel_rad: f64,
    /// Whether the brake lamps are lit (the brake pedal is pressed).
    pub brake_lamps_lit: bool,
    /// Engine speed (rpm), for the rev counter.
    pub engine_rpm: f64,
    /// Road speed (m/s), for the speedometer.
    pub speed_m_per_s: f64,
}

/// Brake pedal travel (0..1) past which the brake-lamp switch closes: a real switch closes
/// within the pedal's first few per cent, before the pads bite.
pub const BRAKE_LAMP_PEDAL: f64 = 0.02;

impl VehiclePose {
    /// The pose of a snapshot, with the wheels' spin angles from `spin` (see
    /// [`SpinAngles`]). Non-finite values are replaced (identity rotation, zero angles) so a
    /// broken snapshot never breaks the picture.
    pub fn from_snapshot(snapshot: &Snapshot, spin: &SpinAngles) -> Self {
        let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
        let position = if snapshot.position.is_finite() {
            snapshot.position
        } else {
            DVec3::ZERO
        };
        let orientation =
            if snapshot.orientation.is_finite() && snapshot.orientation.length_squared() > 1e-12 {
                snapshot.orientation.normalize()
            } else {
                DQuat::IDENTITY
            };
        let wheels = std::array::from_fn(|i| {
            let w = &snapshot.wheels[i];
            WheelPose {
                centre_world: if w.centre_position.is_finite() {
                    w.centre_position
                } else {
                    position
                },
                steer_rad: finite(w.steer_angle_rad),
                spin_angle_rad: finite(spin.angles_rad[i]),
                travel_m: finite(w.suspension_travel_m),
            }
        });
        Self {
            position,
            orientation,
            wheels,
            steering_wheel_rad: finite(snapshot.steering_wheel_rad),
            brake_lamps_lit: snapshot.controls.brake > BRAKE_LAMP_PEDAL,
            engine_rpm: finite(snapshot.powertrain.engine_rpm),
            speed_m_per_s: finite(snapshot.speed_m_per_s),
        }
    }

    /// The car at rest at `position` (CG, m) heading `heading_rad` (counter-clockwise from +x),
    /// level, wheels straight at static ride height.
    pub fn at_rest(visual: &VehicleVisual, position: DVec3, heading_rad: f64) -> Self {
        let orientation = DQuat::from_rotation_z(heading_rad);
        Self::at_rest_oriented(visual, position, orientation)
    }

    fn at_rest_oriented(visual: &VehicleVisual, position: DVec3, orientation: DQuat) -> Self {
        let wheels = std::array::from_fn(|i| WheelPose {
            centre_world: position + orientation * visual.static_wheel_centre_body(i),
            steer_rad: 0.0,
            spin_angle_rad: 0.0,
            travel_m: 0.0,
        });
        Self {
            position,
            orientation,
            wheels,
            steering_wheel_rad: 0.0,
            brake_lamps_lit: false,
            engine_rpm: 0.0,
            speed_m_per_s: 0.0,
        }
    }

    /// The car at rest on the centre line of `track` at station `station_m` (m), plus
    /// `lateral_m` to the left, facing the direction of travel and sitting on the road's
    /// surface (banking and grade included).
    ///
    /// # Errors
    /// [`RenderError::Invalid`] when the track has no centre line or the station lies
    /// beyond the end of an open one.
    pub fn on_centre_line(
        track: &TrackMesh,
        visual: &VehicleVisual,
        station_m: f64,
        lateral_m: f64,
    ) -> Result<Self, RenderError> {
        let sample = track.centre_line.sample_at(station_m).ok_or_else(|| {
            RenderError::Invalid(format!(
                "station {station_m} m is not on the track's centre line (length {:.1} m)",
                track.length_m
            ))
        })?;
        let lateral = if lateral_m.is_finite() {
            lateral_m
        } else {
            0.0
        };
        let forward = sample.tangent.normalize_or(DVec3::X);
        let up = sample.normal.normalize_or(DVec3::Z);
        let left = up.cross(forward).normalize_or(DVec3::Y);
        let up = forward.cross(left);
        let orientation = DQuat::from_mat3(&glam::DMat3::from_cols(forward, left, up));
        let ground = sample.position + left * lateral;
        let position = ground + up * visual.cg_height_m;
        Ok(Self::at_rest_oriented(visual, position, orientation))
    }

    /// The pose a fraction `t` (clamped to 0..=1) of the way from `a` to `b`: positions and
    /// angles linearly, the body's orientation by slerp, spin angles along the shorter way
    /// round, the brake lamps as the nearer of the two. For drawing between two physics
    /// snapshots.
    pub fn interpolate(a: &Self, b: &Self, t: f64) -> Self {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            1.0
        };
        let lerp = |x: f64, y: f64| x + (y - x) * t;
        let wheels = std::array::from_fn(|i| {
            let (wa, wb) = (&a.wheels[i], &b.wheels[i]);
            let spin_step = (wb.spin_angle_rad - wa.spin_angle_rad + PI).rem_euclid(TAU) - PI;
            WheelPose {
                centre_world: wa.centre_world.lerp(wb.centre_world, t),
                steer_rad: lerp(wa.steer_rad, wb.steer_rad),
                spin_angle_rad: wa.spin_angle_rad + spin_step * t,
                travel_m: lerp(wa.travel_m, wb.travel_m),
            }
        });
        Self {
            position: a.position.lerp(b.position, t),
            orientation: a.orientation.slerp(b.orientation, t).normalize(),
            wheels,
            steering_wheel_rad: lerp(a.steering_wheel_rad, b.steering_wheel_rad),
            brake_lamps_lit: if t < 0.5 {
                a.brake_lamps_lit
            } else {
                b.brake_lamps_lit
            },
            engine_rpm: lerp(a.engine_rpm, b.engine_rpm),
            speed_m_per_s: lerp(a.speed_m_per_s, b.speed_m_per_s),
        }
    }

    /// Steers the front wheels by `steer_rad` and turns the steering wheel to match with
    /// `ratio`; for previews and tests.
    #[must_use]
    pub fn with_front_steer(mut self, steer_rad: f64, ratio: f64) -> Self {
        self.wheels[0].steer_rad = steer_rad;
        self.wheels[1].steer_rad = steer_rad;
        self.steering_wheel_rad = steer_rad * ratio;
        self
    }

    /// `world_from_body` as a matrix.
    pub fn world_from_body(&self) -> DMat4 {
        DMat4::from_rotation_translation(self.orientation, self.position)
    }

    /// `world_from_wheel` of wheel `index` (FL, FR, RL, RR): centre, body orientation, steer
    /// about body z, spin about the axle. Right-hand wheels (odd index) are turned half a turn
    /// about z so the mesh's outer face (+y) points right.
    pub fn world_from_wheel(&self, index: usize) -> DMat4 {
        let wheel = &self.wheels[index.min(3)];
        let right = !index.is_multiple_of(2);
        let (mirror, spin) = if right {
            (DQuat::from_rotation_z(PI), -wheel.spin_angle_rad)
        } else {
            (DQuat::IDENTITY, wheel.spin_angle_rad)
        };
        let rotation = self.orientation
            * DQuat::from_rotation_z(wheel.steer_rad)
            * mirror
            * DQuat::from_rotation_y(spin);
        DMat4::from_rotation_translation(rotation, wheel.centre_world)
    }
}

/// Wheel spin angles integrated from spin rates frame by frame, wrapped to `[0, 2π)`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpinAngles {
    /// Angle of each wheel (rad), FL, FR, RL, RR.
    pub angles_rad: [f64; 4],
}

impl SpinAngles {
    /// Advances every wheel by its spin rate in `snapshot` over `dt_s` seconds. Non-finite or
    /// negative `dt_s` and non-finite rates leave the angles alone.
    pub fn advance(&mut self, snapshot: &Snapshot, dt_s: f64) {
        if !dt_s.is_finite() || dt_s <= 0.0 {
            return;
        }
        for (angle, wheel) in self.angles_rad.iter_mut().zip(&snapshot.wheels) {
            let rate = wheel.spin_rad_per_s;
            if rate.is_finite() {
                *angle = (*angle + rate * dt_s).rem_euclid(TAU);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::vehicle::VehicleParams;

    fn visual() -> VehicleVisual {
        VehicleVisual::from_params(&VehicleParams::default())
    }

    fn close(a: DVec3, b: DVec3) -> bool {
        (a - b).length() < 1e-9
    }

    #[test]
    fn a_straight_wheel_sits_at_its_centre_with_axle_along_y() {
        let v = visual();
        let pose = VehiclePose::at_rest(&v, DVec3::new(10.0, 5.0, 0.5), 0.0);
        for i in 0..4 {
            let m = pose.world_from_wheel(i);
            assert!(close(
                m.transform_point3(DVec3::ZERO),
                pose.wheels[i].centre_world
            ));
            // The mesh's outer face (+y) points out of the car on both sides.
            let out = m.transform_vector3(DVec3::Y);
            let expected = if i.is_multiple_of(2) {
                DVec3::Y
            } else {
                -DVec3::Y
            };
            assert!(close(out, expected), "wheel {i}: {out}");
        }
    }

    #[test]
    fn steer_turns_the_wheel_left_for_positive_angles() {
        let v = visual();
        let pose = VehiclePose::at_rest(&v, DVec3::ZERO, 0.0).with_front_steer(0.3, 15.0);
        for i in 0..2 {
            // The wheel's rolling direction is the mesh's forward axis (x) on the left wheel,
            // -x on the right one (turned half a turn).
            let m = pose.world_from_wheel(i);
            let sign = if i == 0 { 1.0 } else { -1.0 };
            let forward = m.transform_vector3(DVec3::X * sign);
            assert!(close(forward, DVec3::new(0.3f64.cos(), 0.3f64.sin(), 0.0)));
        }
        assert!((pose.steering_wheel_rad - 4.5).abs() < 1e-12);
        // Rear wheels are not steered.
        let rear = pose.world_from_wheel(2).transform_vector3(DVec3::X);
        assert!(close(rear, DVec3::X));
    }

    #[test]
    fn positive_spin_moves_the_top_of_every_wheel_forward() {
        let v = visual();
        let mut pose = VehiclePose::at_rest(&v, DVec3::ZERO, 0.7);
        for w in &mut pose.wheels {
            w.spin_angle_rad = 0.2;
        }
        let forward = DVec3::new(0.7f64.cos(), 0.7f64.sin(), 0.0);
        for i in 0..4 {
            let m = pose.world_from_wheel(i);
            let top = m.transform_point3(DVec3::Z) - pose.wheels[i].centre_world;
            assert!(top.dot(forward) > 0.19, "wheel {i}: {top}");
            assert!(top.z > 0.97);
        }
    }

    #[test]
    fn travel_moves_the_wheel_with_its_centre() {
        let v = visual();
        let mut pose = VehiclePose::at_rest(&v, DVec3::ZERO, 0.0);
        let before = pose.world_from_wheel(3).transform_point3(DVec3::ZERO);
        pose.wheels[3].centre_world.z += 0.04;
        pose.wheels[3].travel_m = 0.04;
        let after = pose.world_from_wheel(3).transform_point3(DVec3::ZERO);
        assert!(close(after - before, DVec3::new(0.0, 0.0, 0.04)));
    }

    #[test]
    fn spin_angles_integrate_and_wrap() {
        let mut s = SpinAngles::default();
        let mut snap = Snapshot::default();
        for (i, w) in snap.wheels.iter_mut().enumerate() {
            w.spin_rad_per_s = 10.0 * (i as f64 + 1.0);
        }
        snap.wheels[3].spin_rad_per_s = f64::NAN;
        s.advance(&snap, 0.1);
        assert!((s.angles_rad[0] - 1.0).abs() < 1e-12);
        assert!((s.angles_rad[1] - 2.0).abs() < 1e-12);
        assert!((s.angles_rad[2] - 3.0).abs() < 1e-12);
        assert!(s.angles_rad[3].abs() < 1e-12);
        s.advance(&snap, 1.0);
        assert!(s.angles_rad.iter().all(|a| (0.0..TAU).contains(a)));
        let before = s;
        s.advance(&snap, f64::NAN);
        s.advance(&snap, -1.0);
        assert_eq!(s, before);
    }

    #[test]
    fn interpolation_goes_between_two_poses() {
        let v = visual();
        let mut a = VehiclePose::at_rest(&v, DVec3::ZERO, 0.0);
        let mut b = VehiclePose::at_rest(&v, DVec3::new(2.0, 0.0, 0.0), 1.0);
        a.wheels[0].spin_angle_rad = 6.2;
        b.wheels[0].spin_angle_rad = 0.1;
        let mid = VehiclePose::interpolate(&a, &b, 0.5);
        assert!(close(mid.position, DVec3::new(1.0, 0.0, 0.0)));
        let heading = (mid.orientation * DVec3::X)
            .y
            .atan2((mid.orientation * DVec3::X).x);
        assert!((heading - 0.5).abs() < 1e-9);
        // 6.2 -> 0.1 goes forward through 2π, not back through π.
        let spin = mid.wheels[0].spin_angle_rad.rem_euclid(TAU);
        assert!(
            (spin - (6.2 + 0.5 * (0.1 + TAU - 6.2))).rem_euclid(TAU) < 1e-9,
            "{spin}"
        );
        assert_eq!(VehiclePose::interpolate(&a, &b, 0.0), a);
        assert!(close(
            VehiclePose::interpolate(&a, &b, 7.0).position,
            b.position
        ));
        assert!(close(
            VehiclePose::interpolate(&a, &b, f64::NAN).position,
            b.position
        ));
    }

    #[test]
    fn a_broken_snapshot_gives_a_finite_pose() {
        let mut snap = Snapshot {
            position: DVec3::NAN,
            orientation: DQuat::from_xyzw(f64::NAN, 0.0, 0.0, 1.0),
            ..Snapshot::default()
        };
        snap.wheels[0].steer_angle_rad = f64::INFINITY;
        snap.wheels[1].centre_position = DVec3::NAN;
        let pose = VehiclePose::from_snapshot(&snap, &SpinAngles::default());
        assert!(pose.position.is_finite() && pose.orientation.is_finite());
        for i in 0..4 {
            assert!(pose.world_from_wheel(i).is_finite());
        }
    }

    #[test]
    fn brake_lamps_follow_the_pedal_past_the_switch_point() {
        let pose_at = |brake: f64| {
            let mut snap = Snapshot::default();
            snap.controls.brake = brake;
            VehiclePose::from_snapshot(&snap, &SpinAngles::default()).brake_lamps_lit
        };
        assert!(!pose_at(0.0));
        assert!(!pose_at(BRAKE_LAMP_PEDAL * 0.5));
        assert!(!pose_at(f64::NAN));
        assert!(pose_at(BRAKE_LAMP_PEDAL * 2.0));
        assert!(pose_at(1.0));
        // Between two poses the nearer one decides.
        let (mut a, mut b) = (
            VehiclePose::at_rest(&visual(), DVec3::ZERO, 0.0),
            VehiclePose::at_rest(&visual(), DVec3::ZERO, 0.0),
        );
        a.brake_lamps_lit = false;
        b.brake_lamps_lit = true;
        assert!(!VehiclePose::interpolate(&a, &b, 0.3).brake_lamps_lit);
        assert!(VehiclePose::interpolate(&a, &b, 0.7).brake_lamps_lit);
    }
}
