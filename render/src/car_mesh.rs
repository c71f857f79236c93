//! The generated low-poly car: body (tub, fenders with wheel arches, greenhouse, roof, lamps),
//! wheels (tyre, rim with five spokes so that spin shows), and the cockpit (dashboard,
//! pillars, roof lining, steering wheel). All in the body frame (x forward, y left, z up,
//! origin at the CG), except wheels (wheel frame) and the steering wheel (column frame).

use glam::{DMat4, DQuat, Mat4, Vec3};

use crate::mesh::{MeshBuilder, material};
use crate::vehicle_visual::{BodyStyle, VehicleVisual};

const TYRE: [f32; 3] = [0.018, 0.018, 0.02];
const SIDEWALL: [f32; 3] = [0.03, 0.03, 0.032];
const RIM: [f32; 3] = [0.55, 0.56, 0.58];
const RIM_DARK: [f32; 3] = [0.06, 0.06, 0.065];
const GLASS: [f32; 3] = [0.012, 0.016, 0.022];
const TRIM: [f32; 3] = [0.015, 0.015, 0.016];
const INTERIOR: [f32; 3] = [0.025, 0.025, 0.027];

/// Height of the belt line (top of the doors) in the body frame (m): a coupe's glasshouse
/// is shallower than the others'.
pub fn belt_z_m(v: &VehicleVisual) -> f64 {
    let fraction = if v.style == BodyStyle::Coupe {
        0.58
    } else {
        0.55
    };
    v.ground_z_m() + v.ground_clearance_m + fraction * (v.height_m - v.ground_clearance_m)
}

/// Side profile of the lower body at `x`: (underside z, top z, half width), interpolated
/// between sections from tail to nose.
struct Profile {
    sections: Vec<[f32; 4]>,
}

impl Profile {
    #[allow(clippy::cast_possible_truncation)]
    fn new(v: &VehicleVisual) -> Self {
        let g = v.ground_z_m() as f32;
        let zb = g + v.ground_clearance_m as f32;
        let belt = belt_z_m(v) as f32;
        let hw = 0.5 * v.width_m as f32;
        let (xt, xn) = (v.tail_x_m() as f32, v.nose_x_m() as f32);
        let (xr, xf) = (v.axle_x_m(1) as f32, v.axle_x_m(0) as f32);
        let len = xn - xt;
        let fo = xn - xf;
        // Behind the rear wheels the underside rises to the bumper's lower edge, about the
        // wheel centre's height or a little above, as on a road car, so the rear tyres show below the body
        // from the chase camera.
        let rr = v.wheel_radius_m[1] as f32;
        let quarter = (xr - 1.2 * rr).max(xt + 0.04 * len + 0.01);
        let sections = vec![
            [xt, (g + 1.3 * rr).max(zb + 0.12), belt - 0.03, hw * 0.9],
            [
                xt + 0.04 * len,
                (g + 1.2 * rr).max(zb + 0.03),
                belt + 0.02,
                hw * 0.97,
            ],
            [quarter, (g + rr).max(zb), belt + 0.015, hw],
            [xr, zb, belt + 0.01, hw],
            [0.5 * (xr + xf), zb, belt, hw],
            [xf, zb, belt - 0.05, hw],
            [xn - 0.35 * fo, zb + 0.02, belt - 0.13, hw * 0.97],
            [xn - 0.08 * fo, zb + 0.05, belt - 0.2, hw * 0.88],
            [xn, zb + 0.1, belt - 0.26, hw * 0.8],
        ];
        Self { sections }
    }

    fn at(&self, x: f32) -> [f32; 3] {
        let s = &self.sections;
        if x <= s[0][0] {
            return [s[0][1], s[0][2], s[0][3]];
        }
        for w in s.windows(2) {
            if x <= w[1][0] {
                let t = ((x - w[0][0]) / (w[1][0] - w[0][0]).max(1e-6)).clamp(0.0, 1.0);
                let lerp = |i: usize| w[0][i] + (w[1][i] - w[0][i]) * t;
                return [lerp(1), lerp(2), lerp(3)];
            }
        }
        let l = s[s.len() - 1];
        [l[1], l[2], l[3]]
    }

    /// Breakpoints strictly between `x0` and `x1`, with both ends.
    fn stations(&self, x0: f32, x1: f32) -> Vec<f32> {
        let mut xs = vec![x0];
        xs.extend(
            self.sections
                .iter()
                .map(|s| s[0])
                .filter(|&x| x > x0 + 1e-3 && x < x1 - 1e-3),
        );
        xs.push(x1);
        xs
    }
}

/// A block of the lower body from `x0` to `x1`, across `y0..y1` (as fractions of the local
/// half width when `scaled`, else metres), from the profile's underside (or `floor_z`) to
/// its top.
#[allow(clippy::too_many_arguments)]
fn body_block(
    m: &mut MeshBuilder,
    p: &Profile,
    x0: f32,
    x1: f32,
    y: [f32; 2],
    scaled: bool,
    floor_z: Option<f32>,
    ceiling_z: Option<f32>,
    color: [f32; 3],
) {
    let xs = p.stations(x0, x1);
    for w in xs.windows(2) {
        let (mut a, mut b) = (p.at(w[0]), p.at(w[1]));
        if let Some(c) = ceiling_z {
            a[1] = a[1].min(c);
            b[1] = b[1].min(c);
        }
        let yy = |s: [f32; 3], k: usize| if scaled { y[k] * s[2] } else { y[k] };
        let za = floor_z.unwrap_or(a[0]).min(a[1] - 0.02);
        let zb = floor_z.unwrap_or(b[0]).min(b[1] - 0.02);
        let bottom = [
            Vec3::new(w[0], yy(a, 0), za),
            Vec3::new(w[1], yy(b, 0), zb),
            Vec3::new(w[1], yy(b, 1), zb),
            Vec3::new(w[0], yy(a, 1), za),
        ];
        let top = [
            Vec3::new(w[0], yy(a, 0), a[1]),
            Vec3::new(w[1], yy(b, 0), b[1]),
            Vec3::new(w[1], yy(b, 1), b[1]),
            Vec3::new(w[0], yy(a, 1), a[1]),
        ];
        m.hexahedron(bottom, top, color, material::GLOSSY);
    }
}

/// The body mesh in the body frame.
#[allow(clippy::cast_possible_truncation)]
pub fn body_mesh(v: &VehicleVisual) -> MeshBuilder {
    let mut m = MeshBuilder::new();
    let p = Profile::new(v);
    let paint = v.paint_rgb;
    let g = v.ground_z_m() as f32;
    let hw = 0.5 * v.width_m as f32;
    let (xt, xn) = (v.tail_x_m() as f32, v.nose_x_m() as f32);
    let axles = [v.axle_x_m(0) as f32, v.axle_x_m(1) as f32];
    let radii = [v.wheel_radius_m[0] as f32, v.wheel_radius_m[1] as f32];
    // Inner edge of the wheels: the tub between them.
    let inner = (0..2)
        .map(|a| 0.5 * (v.track_m[a] - v.tyre_width_m[a]) as f32 - 0.03)
        .fold(hw, f32::min)
        .clamp(0.2, hw - 0.05);
    // The tub, open (down to the floor, dark) where the cabin is.
    let [cabin_rear, cabin_front, roof_rear, roof_front] = v.cabin_stations_m().map(|x| x as f32);
    let cabin_floor = g + v.ground_clearance_m as f32 + 0.22;
    let tub = [-inner, inner];
    body_block(&mut m, &p, xt, cabin_rear, tub, false, None, None, paint);
    body_block(
        &mut m,
        &p,
        cabin_rear,
        cabin_front,
        tub,
        false,
        None,
        Some(cabin_floor),
        INTERIOR,
    );
    body_block(&mut m, &p, cabin_front, xn, tub, false, None, None, paint);
    // Outer panels, cut around the wheel arches, and fenders above them.
    let arch = |a: usize| (axles[a] - 1.2 * radii[a], axles[a] + 1.2 * radii[a]);
    let (rear0, rear1) = arch(1);
    let (front0, front1) = arch(0);
    for range in [[inner / hw, 1.0], [-1.0, -inner / hw]] {
        for (x0, x1) in [(xt, rear0), (rear1, front0), (front1, xn)] {
            if x1 > x0 + 0.02 {
                body_block(&mut m, &p, x0, x1, range, true, None, None, paint);
            }
        }
        for (a, radius) in radii.iter().enumerate() {
            let (x0, x1) = arch(a);
            let lowest_top = p.at(x0)[1].min(p.at(x1)[1]);
            let floor = (g + 2.0 * radius + 0.05).min(lowest_top - 0.04);
            body_block(&mut m, &p, x0, x1, range, true, Some(floor), None, paint);
            // Dark arch lining, so the opening reads as a hole.
            let lining_y = if range[0] > 0.0 { inner } else { -inner };
            let (y0, y1) = if lining_y > 0.0 {
                (lining_y - 0.02, lining_y)
            } else {
                (lining_y, lining_y + 0.02)
            };
            m.cuboid(
                Vec3::new(x0, y0, g + 0.1),
                Vec3::new(x1, y1, floor - 0.005),
                TRIM,
                material::MATTE,
            );
        }
    }
    // Greenhouse: glass, with a painted roof.
    let belt_at = |x: f32| p.at(x)[1];
    let roof_z = g + v.height_m as f32 - 0.03;
    let (hwc, hwr) = (0.9 * hw, 0.72 * hw);
    let bottom = [
        Vec3::new(cabin_rear, -hwc, belt_at(cabin_rear) - 0.01),
        Vec3::new(cabin_front, -hwc, belt_at(cabin_front) - 0.01),
        Vec3::new(cabin_front, hwc, belt_at(cabin_front) - 0.01),
        Vec3::new(cabin_rear, hwc, belt_at(cabin_rear) - 0.01),
    ];
    let top = [
        Vec3::new(roof_rear, -hwr, roof_z),
        Vec3::new(roof_front, -hwr, roof_z),
        Vec3::new(roof_front, hwr, roof_z),
        Vec3::new(roof_rear, hwr, roof_z),
    ];
    m.hexahedron(bottom, top, GLASS, material::GLOSSY);
    let inset = 0.04;
    let rb = [
        Vec3::new(roof_rear + inset, -hwr + inset, roof_z - 0.01),
        Vec3::new(roof_front - inset, -hwr + inset, roof_z - 0.01),
        Vec3::new(roof_front - inset, hwr - inset, roof_z - 0.01),
        Vec3::new(roof_rear + inset, hwr - inset, roof_z - 0.01),
    ];
    let rt = rb.map(|c| c + Vec3::Z * 0.035);
    m.hexahedron(rb, rt, paint, material::GLOSSY);
    // Pillars (body colour) at the four corners of the greenhouse.
    for (b, t) in [(0usize, 0usize), (1, 1), (2, 2), (3, 3)] {
        pillar(&mut m, bottom[b], top[t], 0.05, paint);
    }
    // Lamps, grille and bumpers.
    let nose = p.at(xn - 0.06);
    for side in [-1.0f32, 1.0] {
        let (ya, yb) = (side * 0.5 * hw, side * 0.78 * hw);
        let (y0, y1) = (ya.min(yb), ya.max(yb));
        m.cuboid(
            Vec3::new(xn - 0.14, y0, nose[1] - 0.07),
            Vec3::new(xn - 0.02, y1, nose[1] + 0.012),
            [1.0, 0.95, 0.8],
            material::EMISSIVE,
        );
    }
    // Black housings around the tail lamps (see [`tail_lamps_mesh`]), so that the lamps
    // read against the paint whether lit or not.
    let tail = p.at(xt + 0.02);
    for side in [-1.0f32, 1.0] {
        m.cuboid(
            Vec3::new(xt - 0.006, side * 0.53 * hw, tail[1] - 0.135),
            Vec3::new(xt + 0.04, side * 0.87 * hw, tail[1] - 0.025),
            TRIM,
            material::GLOSSY,
        );
    }
    let low = p.at(xn - 0.02);
    m.cuboid(
        Vec3::new(xn - 0.05, -0.4 * hw, low[0] + 0.03),
        Vec3::new(xn + 0.01, 0.4 * hw, low[0] + 0.13),
        TRIM,
        material::MATTE,
    );
    let rear = p.at(xt);
    m.cuboid(
        Vec3::new(xt - 0.02, -0.9 * hw, rear[0] - 0.02),
        Vec3::new(xt + 0.1, 0.9 * hw, rear[0] + 0.08),
        TRIM,
        material::MATTE,
    );
    style_parts(&mut m, v, &p, [roof_rear, roof_front, roof_z]);
    m
}

/// Stripe colour of the rally car's livery (linear RGB).
const LIVERY: [f32; 3] = [0.02, 0.08, 0.45];

/// What sets the styles apart beyond their cabins: the coupe's ducktail, the hatchback's roof
/// spoiler, the rally car's wing, mud flaps, roof scoop, lamp pod and stripes. `roof` is
/// (roof rear x, roof front x, roof z).
#[allow(clippy::cast_possible_truncation)]
fn style_parts(m: &mut MeshBuilder, v: &VehicleVisual, p: &Profile, roof: [f32; 3]) {
    let hw = 0.5 * v.width_m as f32;
    let (xt, xn) = (v.tail_x_m() as f32, v.nose_x_m() as f32);
    let g = v.ground_z_m() as f32;
    let paint = v.paint_rgb;
    let [roof_rear, roof_front, roof_z] = roof;
    let tail_top = p.at(xt + 0.05)[1];
    match v.style {
        BodyStyle::Coupe => {
            // Ducktail: a lip across the tail, kicked up.
            m.hexahedron(
                [
                    Vec3::new(xt + 0.02, -0.85 * hw, tail_top),
                    Vec3::new(xt + 0.3, -0.85 * hw, tail_top),
                    Vec3::new(xt + 0.3, 0.85 * hw, tail_top),
                    Vec3::new(xt + 0.02, 0.85 * hw, tail_top),
                ],
                [
                    Vec3::new(xt - 0.02, -0.85 * hw, tail_top + 0.06),
                    Vec3::new(xt + 0.3, -0.85 * hw, tail_top + 0.01),
                    Vec3::new(xt + 0.3, 0.85 * hw, tail_top + 0.01),
                    Vec3::new(xt - 0.02, 0.85 * hw, tail_top + 0.06),
                ],
                paint,
                material::GLOSSY,
            );
        }
        BodyStyle::Hatchback => {
            // Roof spoiler over the tailgate.
            m.cuboid(
                Vec3::new(roof_rear - 0.12, -0.7 * hw, roof_z - 0.02),
                Vec3::new(roof_rear + 0.1, 0.7 * hw, roof_z + 0.035),
                paint,
                material::GLOSSY,
            );
        }
        BodyStyle::Saloon => {}
        BodyStyle::Rally => {
            // Rear wing on two posts over the boot.
            let wing_z = tail_top + 0.22;
            for side in [-0.55f32, 0.55] {
                m.cuboid(
                    Vec3::new(xt + 0.12, side * hw - 0.02, tail_top - 0.02),
                    Vec3::new(xt + 0.2, side * hw + 0.02, wing_z),
                    TRIM,
                    material::MATTE,
                );
            }
            m.cuboid(
                Vec3::new(xt + 0.02, -0.9 * hw, wing_z),
                Vec3::new(xt + 0.32, 0.9 * hw, wing_z + 0.03),
                paint,
                material::GLOSSY,
            );
            // Mud flaps behind each wheel.
            for axle in 0..2 {
                let x = v.axle_x_m(axle) as f32 - 1.15 * v.wheel_radius_m[axle] as f32;
                let y = 0.5 * v.track_m[axle] as f32;
                for side in [-1.0f32, 1.0] {
                    let (y0, y1) = (side * (y - 0.12), side * (y + 0.1));
                    m.cuboid(
                        Vec3::new(x - 0.01, y0.min(y1), g + 0.06),
                        Vec3::new(
                            x + 0.01,
                            y0.max(y1),
                            g + 0.06 + v.wheel_radius_m[axle] as f32,
                        ),
                        TRIM,
                        material::MATTE,
                    );
                }
            }
            // Roof scoop.
            let mid = 0.5 * (roof_rear + roof_front);
            m.hexahedron(
                [
                    Vec3::new(mid - 0.15, -0.12, roof_z + 0.02),
                    Vec3::new(mid + 0.12, -0.12, roof_z + 0.02),
                    Vec3::new(mid + 0.12, 0.12, roof_z + 0.02),
                    Vec3::new(mid - 0.15, 0.12, roof_z + 0.02),
                ],
                [
                    Vec3::new(mid - 0.15, -0.1, roof_z + 0.1),
                    Vec3::new(mid - 0.05, -0.1, roof_z + 0.1),
                    Vec3::new(mid - 0.05, 0.1, roof_z + 0.1),
                    Vec3::new(mid - 0.15, 0.1, roof_z + 0.1),
                ],
                TRIM,
                material::MATTE,
            );
            // Lamp pod: four lamps across the nose.
            let nose = p.at(xn - 0.05);
            for k in 0..4 {
                let y = (-0.45 + 0.3 * k as f32) * hw;
                m.cuboid(
                    Vec3::new(xn - 0.02, y - 0.08, nose[1] + 0.02),
                    Vec3::new(xn + 0.05, y + 0.08, nose[1] + 0.16),
                    TRIM,
                    material::MATTE,
                );
                m.cuboid(
                    Vec3::new(xn + 0.05, y - 0.065, nose[1] + 0.035),
                    Vec3::new(xn + 0.06, y + 0.065, nose[1] + 0.145),
                    [1.0, 0.95, 0.8],
                    material::EMISSIVE,
                );
            }
            // Stripes: along both sides at the doors' middle, and over the bonnet and roof.
            let door_z =
                g + v.ground_clearance_m as f32 + 0.3 * (v.height_m - v.ground_clearance_m) as f32;
            for side in [-1.0f32, 1.0] {
                let (y0, y1) = (side * (hw + 0.004), side * (hw - 0.01));
                m.cuboid(
                    Vec3::new(xt + 0.3, y0.min(y1), door_z - 0.06),
                    Vec3::new(xn - 0.3, y0.max(y1), door_z + 0.06),
                    LIVERY,
                    material::GLOSSY,
                );
            }
            m.cuboid(
                Vec3::new(roof_rear + 0.05, -0.12, roof_z + 0.001),
                Vec3::new(roof_front - 0.05, 0.12, roof_z + 0.012),
                LIVERY,
                material::GLOSSY,
            );
        }
    }
}

/// Colour of the tail lamps: the running lights, and brighter when the brakes are on (linear
/// RGB, unlit).
const TAIL_LAMP: [f32; 3] = [0.06, 0.004, 0.002];
const BRAKE_LAMP: [f32; 3] = [1.0, 0.012, 0.006];

/// The two tail lamps in the body frame, lit as brake lamps when `braking`. Separate from
/// [`body_mesh`] so the renderer can switch them per frame without rebuilding the body.
#[allow(clippy::cast_possible_truncation)]
pub fn tail_lamps_mesh(v: &VehicleVisual, braking: bool) -> MeshBuilder {
    let mut m = MeshBuilder::new();
    let p = Profile::new(v);
    let hw = 0.5 * v.width_m as f32;
    let xt = v.tail_x_m() as f32;
    let tail = p.at(xt + 0.02);
    let colour = if braking { BRAKE_LAMP } else { TAIL_LAMP };
    for side in [-1.0f32, 1.0] {
        let (ya, yb) = (side * 0.55 * hw, side * 0.85 * hw);
        m.cuboid(
            Vec3::new(xt - 0.012, ya.min(yb), tail[1] - 0.12),
            Vec3::new(xt + 0.05, ya.max(yb), tail[1] - 0.04),
            colour,
            material::EMISSIVE,
        );
    }
    m
}

/// A thin four-sided post from `a` to `b`.
fn pillar(m: &mut MeshBuilder, a: Vec3, b: Vec3, half: f32, color: [f32; 3]) {
    let d = [
        Vec3::new(-half, -half, 0.0),
        Vec3::new(half, -half, 0.0),
        Vec3::new(half, half, 0.0),
        Vec3::new(-half, half, 0.0),
    ];
    m.hexahedron(d.map(|o| a + o), d.map(|o| b + o), color, material::GLOSSY);
}

/// One wheel in the wheel frame (axle along y, outer face at +y): tyre, sidewall and a rim
/// with five spokes.
#[allow(clippy::cast_possible_truncation)]
pub fn wheel_mesh(radius_m: f64, width_m: f64) -> MeshBuilder {
    let mut m = MeshBuilder::new();
    let r = radius_m as f32;
    let hw = 0.5 * width_m as f32;
    let segments = 28;
    m.cylinder_y(r, -hw, hw, segments, TYRE, None, material::MATTE);
    let rim_r = 0.68 * r;
    annulus(&mut m, hw, rim_r, r, segments, true, SIDEWALL);
    annulus(&mut m, -hw, 0.0, r, segments, false, SIDEWALL);
    // The rim: a dark barrel behind the spokes, a bright lip, five spokes and a hub.
    let face = hw - 0.035;
    annulus(&mut m, face, 0.0, rim_r, segments, true, RIM_DARK);
    annulus(&mut m, hw - 0.004, 0.88 * rim_r, rim_r, segments, true, RIM);
    for k in 0..5 {
        let angle = std::f32::consts::TAU * k as f32 / 5.0;
        let spoke_w = 0.09 * r;
        m.set_transform(Some(Mat4::from_rotation_y(angle)));
        m.cuboid(
            Vec3::new(-spoke_w, face, 0.1 * r),
            Vec3::new(spoke_w, hw - 0.008, 0.9 * rim_r),
            RIM,
            material::GLOSSY,
        );
    }
    m.set_transform(None);
    m.cylinder_y(
        0.16 * r,
        face,
        hw - 0.006,
        10,
        RIM,
        Some(RIM),
        material::GLOSSY,
    );
    m
}

/// A flat ring in the plane `y`, facing +y (`outward`) or -y.
fn annulus(
    m: &mut MeshBuilder,
    y: f32,
    r0: f32,
    r1: f32,
    segments: u32,
    outward: bool,
    color: [f32; 3],
) {
    let point = |k: u32, r: f32| {
        let a = std::f32::consts::TAU * k as f32 / segments as f32;
        Vec3::new(r * a.cos(), y, r * a.sin())
    };
    for k in 0..segments {
        let q = [
            point(k, r0),
            point(k, r1),
            point(k + 1, r1),
            point(k + 1, r0),
        ];
        // Going from +x towards +z is counter-clockwise seen from -y.
        if outward {
            m.quad([q[3], q[2], q[1], q[0]], color, material::MATTE);
        } else {
            m.quad(q, color, material::MATTE);
        }
    }
}

/// The cockpit seen from the driver's seat: dashboard, roof lining and pillars (body frame).
#[allow(clippy::cast_possible_truncation)]
pub fn cockpit_mesh(v: &VehicleVisual) -> MeshBuilder {
    let mut m = MeshBuilder::new();
    let p = Profile::new(v);
    let g = v.ground_z_m() as f32;
    let hw = 0.5 * v.width_m as f32;
    let eye = v.driver_eye_body().as_vec3();
    let belt = p.at(eye.x + 0.6)[1];
    let dash_front = v.cabin_stations_m()[1] as f32;
    // Dashboard: a slab under the windscreen, with a hood over the instruments.
    m.cuboid(
        Vec3::new(eye.x + 0.62, -0.88 * hw, belt - 0.25),
        Vec3::new(dash_front + 0.05, 0.88 * hw, belt + 0.07),
        INTERIOR,
        material::MATTE,
    );
    m.cuboid(
        Vec3::new(eye.x + 0.66, eye.y - 0.2, belt + 0.06),
        Vec3::new(eye.x + 0.8, eye.y + 0.2, belt + 0.12),
        TRIM,
        material::MATTE,
    );
    // Roof lining above the eyes.
    let roof = g + v.height_m as f32 - 0.05;
    m.cuboid(
        Vec3::new(eye.x - 0.8, -0.75 * hw, roof - 0.03),
        Vec3::new(eye.x + 0.38, 0.75 * hw, roof),
        INTERIOR,
        material::MATTE,
    );
    // A-pillars from the dashboard's outer corners up to the roof.
    for side in [-1.0f32, 1.0] {
        pillar(
            &mut m,
            Vec3::new(dash_front + 0.02, side * 0.86 * hw, belt),
            Vec3::new(eye.x + 0.38, side * 0.74 * hw, roof - 0.02),
            0.028,
            INTERIOR,
        );
    }
    // The two dials: dark faces towards the driver, ten light ticks over 270 degrees.
    for centre in gauge_centres(v) {
        let c = centre.as_vec3();
        let radius = 0.058f32;
        let n = 20;
        let rim = |k: u32| {
            let a = std::f32::consts::TAU * k as f32 / n as f32;
            c + Vec3::new(0.0, radius * a.cos(), radius * a.sin())
        };
        for k in 0..n {
            // Counter-clockwise seen from -x (the driver).
            m.triangle([c, rim(k + 1), rim(k)], [0.006; 3], material::MATTE);
        }
        for k in 0..10 {
            let angle = needle_angle_rad(f64::from(k), 9.0) as f32;
            m.set_transform(Some(
                Mat4::from_translation(c) * Mat4::from_rotation_x(angle),
            ));
            m.cuboid(
                Vec3::new(-0.006, -0.002, 0.042),
                Vec3::new(-0.002, 0.002, 0.054),
                [0.75, 0.75, 0.72],
                material::EMISSIVE,
            );
        }
        m.set_transform(None);
    }
    m
}

/// Where the rev counter (0) and the speedometer (1) are centred (body frame): side by side
/// on the dashboard's hood in front of the driver, facing the driver.
pub fn gauge_centres(v: &VehicleVisual) -> [glam::DVec3; 2] {
    let eye = v.driver_eye_body();
    [0.1, -0.1].map(|dy| eye + glam::DVec3::new(0.6, dy, -0.2))
}

/// Needle angle (rad about body x, positive clockwise as the driver sees it; 0 points up)
/// for `value` of a dial whose full scale is `max`: 270 degrees of sweep from -135 at zero.
pub fn needle_angle_rad(value: f64, max: f64) -> f64 {
    let fraction = if value.is_finite() && max > 0.0 {
        (value / max).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (-135.0 + 270.0 * fraction).to_radians()
}

/// `body_from_part` of the steering wheel (its column frame) and of the rev counter's and
/// speedometer's needles (their dial frames: the dial in the y-z plane, the needle along +z
/// at zero angle), for the pose's steering-wheel angle, engine and road speed.
pub fn cockpit_part_transforms(v: &VehicleVisual, pose: &crate::pose::VehiclePose) -> [DMat4; 3] {
    let (mount, tilt) = steering_wheel_mount(v);
    let column = DMat4::from_translation(mount)
        * DMat4::from_quat(
            DQuat::from_rotation_y(tilt) * DQuat::from_rotation_x(-pose.steering_wheel_rad),
        );
    let [rev, speed] = gauge_centres(v);
    let needle = |centre: glam::DVec3, angle: f64| {
        DMat4::from_translation(centre) * DMat4::from_rotation_x(angle)
    };
    [
        column,
        needle(rev, needle_angle_rad(pose.engine_rpm, v.rev_dial_max_rpm)),
        needle(
            speed,
            needle_angle_rad(pose.speed_m_per_s, v.speed_dial_max_m_per_s),
        ),
    ]
}

/// A needle in its dial frame: a thin orange bar along +z from the hub, just in front of
/// the dial face (towards -x, the driver).
pub fn needle_mesh() -> MeshBuilder {
    let mut m = MeshBuilder::new();
    m.cuboid(
        Vec3::new(-0.012, -0.003, -0.01),
        Vec3::new(-0.008, 0.003, 0.048),
        [1.0, 0.25, 0.02],
        material::EMISSIVE,
    );
    m
}

/// Where the steering wheel's centre is (body frame) and its tilt (rad about body y).
pub fn steering_wheel_mount(v: &VehicleVisual) -> (glam::DVec3, f64) {
    let eye = v.driver_eye_body();
    (eye + glam::DVec3::new(0.52, 0.0, -0.27), 22f64.to_radians())
}

/// The steering wheel in its column frame (rim in the y-z plane, column along x).
pub fn steering_wheel_mesh() -> MeshBuilder {
    let mut m = MeshBuilder::new();
    let radius = 0.17f32;
    let n = 24;
    for k in 0..n {
        let a = std::f32::consts::TAU * k as f32 / n as f32;
        let color = if k == n / 4 { [0.7, 0.05, 0.02] } else { TRIM };
        // Counter-clockwise from +y through +z: rim segment k.
        let t = Mat4::from_rotation_x(a) * Mat4::from_translation(Vec3::new(0.0, radius, 0.0));
        m.set_transform(Some(t));
        m.cuboid(
            Vec3::new(-0.016, -0.016, -0.025),
            Vec3::new(0.016, 0.016, 0.025),
            color,
            material::MATTE,
        );
    }
    for a in [0.0f32, 180.0, 270.0] {
        m.set_transform(Some(Mat4::from_rotation_x(a.to_radians())));
        m.cuboid(
            Vec3::new(-0.01, 0.0, -0.02),
            Vec3::new(0.01, radius, 0.02),
            TRIM,
            material::MATTE,
        );
    }
    m.set_transform(None);
    m.cuboid(
        Vec3::new(-0.03, -0.05, -0.05),
        Vec3::new(0.02, 0.05, 0.05),
        TRIM,
        material::MATTE,
    );
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::vehicle::VehicleParams;

    fn visual() -> VehicleVisual {
        VehicleVisual::from_params(&VehicleParams::default())
    }

    #[test]
    #[allow(clippy::cast_possible_truncation)]
    fn the_body_fits_the_car_box() {
        let v = visual();
        let m = body_mesh(&v);
        assert!(m.triangle_count() > 100);
        let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for vert in &m.vertices {
            lo = lo.min(Vec3::from(vert.position));
            hi = hi.max(Vec3::from(vert.position));
        }
        #[allow(clippy::cast_possible_truncation)]
        let (len, w, h) = (v.length_m as f32, v.width_m as f32, v.height_m as f32);
        assert!((hi.x - lo.x - len).abs() < 0.1, "length {}", hi.x - lo.x);
        assert!((hi.y - lo.y - w).abs() < 0.05, "width {}", hi.y - lo.y);
        let ground = v.ground_z_m() as f32;
        assert!((hi.z - ground - h).abs() < 0.05, "height {}", hi.z - ground);
        assert!(lo.z - ground > 0.05, "the body clears the ground");
        assert!(
            m.vertices
                .iter()
                .all(|v| v.position.iter().all(|c| c.is_finite()))
        );
    }

    #[test]
    fn the_wheel_has_its_radius_and_width() {
        let m = wheel_mesh(0.32, 0.25);
        let r = m
            .vertices
            .iter()
            .map(|v| Vec3::new(v.position[0], 0.0, v.position[2]).length())
            .fold(0.0f32, f32::max);
        assert!((r - 0.32).abs() < 1e-4);
        let y = m
            .vertices
            .iter()
            .map(|v| v.position[1].abs())
            .fold(0.0f32, f32::max);
        assert!((y - 0.125).abs() < 1e-4);
        // Spokes make it asymmetric under a fifth of a turn... but not under a half turn.
        let spoke_verts = m.vertices.iter().filter(|v| v.color == RIM).count();
        assert!(spoke_verts > 0);
    }

    /// The needles sweep 270 degrees: -135 at zero, 0 (up) at half scale, +135 at full
    /// scale and beyond; a non-finite value reads zero.
    #[test]
    fn needles_follow_the_engine_and_road_speed() {
        let close = |a: f64, deg: f64| (a - deg.to_radians()).abs() < 1e-12;
        assert!(close(needle_angle_rad(0.0, 8000.0), -135.0));
        assert!(close(needle_angle_rad(4000.0, 8000.0), 0.0));
        assert!(close(needle_angle_rad(9000.0, 8000.0), 135.0));
        assert!(close(needle_angle_rad(f64::NAN, 8000.0), -135.0));
        let v = visual();
        let mut pose = crate::pose::VehiclePose::at_rest(&v, glam::DVec3::ZERO, 0.0);
        pose.engine_rpm = 0.5 * v.rev_dial_max_rpm;
        pose.speed_m_per_s = v.speed_dial_max_m_per_s;
        let [_, rev, speed] = cockpit_part_transforms(&v, &pose);
        // Half scale: the needle's tip (dial frame +z) points straight up in the body.
        let up = rev.transform_vector3(glam::DVec3::Z);
        assert!((up - glam::DVec3::Z).length() < 1e-12, "{up}");
        // Full scale: down and to the driver's right (-y).
        let tip = speed.transform_vector3(glam::DVec3::Z);
        assert!(tip.y < -0.7 && tip.z < -0.7, "{tip}");
    }

    #[test]
    fn cockpit_parts_are_ahead_of_and_above_the_driver() {
        let v = visual();
        let eye = v.driver_eye_body().as_vec3();
        let m = cockpit_mesh(&v);
        assert!(m.vertices.iter().any(|p| p.position[0] > eye.x + 0.4));
        assert!(m.vertices.iter().any(|p| p.position[2] > eye.z));
    }
}
