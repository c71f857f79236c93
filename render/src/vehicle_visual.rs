//! The car's dimensions as the renderer needs them, derived from [`VehicleParams`].
//!
//! Body frame (ISO 8855): x forward, y left, z up, origin at the CG. The ground under the
//! car at static ride height is at `z = -cg_height_m`.

use glam::DVec3;
use gripline_physics::vehicle::VehicleParams;

/// Sizes and colours of the generated car model.
#[derive(Clone, Debug, PartialEq)]
pub struct VehicleVisual {
    /// Overall length (m).
    pub length_m: f64,
    /// Overall width (m).
    pub width_m: f64,
    /// Overall height at static ride height (m).
    pub height_m: f64,
    /// Underside above the ground (m).
    pub ground_clearance_m: f64,
    /// Body ahead of the front axle (m).
    pub front_overhang_m: f64,
    /// Axle distance (m).
    pub wheelbase_m: f64,
    /// CG to front axle, along x (m).
    pub cg_to_front_axle_m: f64,
    /// CG height above the ground (m).
    pub cg_height_m: f64,
    /// Front and rear track (m).
    pub track_m: [f64; 2],
    /// Front and rear wheel radius (m).
    pub wheel_radius_m: [f64; 2],
    /// Front and rear tyre width (m), estimated from the wheel radius.
    pub tyre_width_m: [f64; 2],
    /// Paint colour, linear RGB 0..1.
    pub paint_rgb: [f32; 3],
    /// The driver's eyes (m, body frame) where a car model gives them; `None`: the
    /// generated car's seat ([`VehicleVisual::driver_eye_body`]).
    pub driver_eye_m: Option<DVec3>,
}

impl VehicleVisual {
    /// Dimensions from the vehicle parameters, with a red paint. Non-finite or non-positive
    /// sizes are replaced by those of a typical car, so a broken file never breaks the picture.
    pub fn from_params(params: &VehicleParams) -> Self {
        let pos = |v: f64, fallback: f64| {
            if v.is_finite() && v > 0.0 {
                v
            } else {
                fallback
            }
        };
        let wheelbase_m = pos(params.chassis.wheelbase_m, 2.6);
        let fwf = params.chassis.front_weight_fraction;
        let fwf = if fwf.is_finite() {
            fwf.clamp(0.05, 0.95)
        } else {
            0.5
        };
        let radius = [
            pos(params.front.wheel.radius_m, 0.31),
            pos(params.rear.wheel.radius_m, 0.31),
        ];
        let length_m = pos(params.body.length_m, 4.4).max(wheelbase_m + 0.2);
        let front_overhang_m = pos(params.body.front_overhang_m, 0.9).min(length_m - wheelbase_m);
        let height_m = pos(params.body.height_m, 1.35);
        Self {
            length_m,
            width_m: pos(params.body.width_m, 1.8),
            height_m,
            ground_clearance_m: pos(params.body.ground_clearance_m, 0.13).min(0.5 * height_m),
            front_overhang_m,
            wheelbase_m,
            cg_to_front_axle_m: wheelbase_m * (1.0 - fwf),
            cg_height_m: pos(params.chassis.cg_height_m, 0.5),
            track_m: [
                pos(params.front.track_m, 1.55),
                pos(params.rear.track_m, 1.55),
            ],
            wheel_radius_m: radius,
            tyre_width_m: radius.map(|r| (0.75 * r).clamp(0.15, 0.35)),
            paint_rgb: [0.50, 0.025, 0.02],
            driver_eye_m: None,
        }
    }

    /// The same car in another paint (linear RGB 0..1, clamped).
    #[must_use]
    pub fn with_paint(mut self, rgb: [f32; 3]) -> Self {
        self.paint_rgb = rgb.map(|c| {
            if c.is_finite() {
                c.clamp(0.0, 1.0)
            } else {
                0.5
            }
        });
        self
    }

    /// x of the front (0) or rear (1) axle in the body frame (m).
    pub fn axle_x_m(&self, axle: usize) -> f64 {
        if axle == 0 {
            self.cg_to_front_axle_m
        } else {
            self.cg_to_front_axle_m - self.wheelbase_m
        }
    }

    /// x of the nose (m, body frame).
    pub fn nose_x_m(&self) -> f64 {
        self.cg_to_front_axle_m + self.front_overhang_m
    }

    /// x of the tail (m, body frame).
    pub fn tail_x_m(&self) -> f64 {
        self.nose_x_m() - self.length_m
    }

    /// z of the ground under the car at static ride height (m, body frame).
    pub fn ground_z_m(&self) -> f64 {
        -self.cg_height_m
    }

    /// Centre of wheel `index` (FL, FR, RL, RR) in the body frame at static ride height (m).
    pub fn static_wheel_centre_body(&self, index: usize) -> DVec3 {
        let axle = usize::from(index >= 2);
        let side = if index.is_multiple_of(2) { 1.0 } else { -1.0 };
        DVec3::new(
            self.axle_x_m(axle),
            side * 0.5 * self.track_m[axle],
            self.ground_z_m() + self.wheel_radius_m[axle],
        )
    }

    /// The same car with the driver's eyes at `eye` (m, body frame; a non-finite point is
    /// ignored).
    #[must_use]
    pub fn with_driver_eye(mut self, eye: Option<DVec3>) -> Self {
        self.driver_eye_m = eye.filter(|e| e.is_finite());
        self
    }

    /// Where the driver's eyes are (m, body frame): where a model puts them
    /// ([`VehicleVisual::with_driver_eye`]), else on the left seat, behind the front axle.
    pub fn driver_eye_body(&self) -> DVec3 {
        if let Some(eye) = self.driver_eye_m {
            return eye;
        }
        DVec3::new(
            self.axle_x_m(0) - 0.52 * self.wheelbase_m - 0.1,
            0.2 * self.width_m,
            self.ground_z_m() + self.height_m - 0.2,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> VehicleParams {
        VehicleParams::default()
    }

    #[test]
    fn geometry_follows_the_parameters() {
        let p = params();
        let v = VehicleVisual::from_params(&p);
        assert!((v.axle_x_m(0) - v.axle_x_m(1) - p.chassis.wheelbase_m).abs() < 1e-12);
        assert!((v.nose_x_m() - v.tail_x_m() - p.body.length_m).abs() < 1e-12);
        let fl = v.static_wheel_centre_body(0);
        let rr = v.static_wheel_centre_body(3);
        assert!(fl.y > 0.0 && rr.y < 0.0 && fl.x > rr.x);
        assert!((fl.z - (p.front.wheel.radius_m - p.chassis.cg_height_m)).abs() < 1e-12);
        let eye = v.driver_eye_body();
        assert!(eye.x < v.axle_x_m(0) && eye.x > v.axle_x_m(1) && eye.y > 0.0);
    }

    #[test]
    fn broken_sizes_fall_back() {
        let mut p = params();
        p.body.length_m = f64::NAN;
        p.chassis.wheelbase_m = -1.0;
        p.front.wheel.radius_m = 0.0;
        let v = VehicleVisual::from_params(&p);
        assert!(v.length_m.is_finite() && v.wheelbase_m > 0.0 && v.wheel_radius_m[0] > 0.0);
        let v = v.with_paint([f32::NAN, 2.0, -1.0]);
        assert!(
            v.paint_rgb
                .iter()
                .zip([0.5, 1.0, 0.0])
                .all(|(a, b)| (a - b).abs() < 1e-6)
        );
    }
}
