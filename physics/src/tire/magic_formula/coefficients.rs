//! The coefficient set of a Magic Formula tyre property file, as one flat struct of `f64`.
//!
//! Every field is named after its `.tir` key in snake case (`PKY1` -> `pky1`). A key that a
//! file leaves out takes the default of `MFeval`'s reader (`read_tir` of `MFeval.jl`, which follows
//! `readTIR.m`): scaling factors (`L*`) default to 1, most other coefficients to 0, and a few
//! to typical passenger-car values (`FNOMIN` 4000 N, `LONGVL` 16.7 m/s, `VXLOW` 1 m/s,
//! `FZMIN` 100 N, `QSY1` 0.01, ...). [`MfCoefficients::KEYS`] lists every key with its
//! default and physical dimension, which the `.tir` parser uses to recognise keys and convert
//! units.
//!
//! Not every coefficient takes part in the steady-state force and moment equations: the
//! structural, contact-patch, MF-Swift and turn-slip groups are kept so that a file can be read
//! completely and written back, but [`super::MagicFormula`] does not use them.

use serde::{Deserialize, Serialize};

/// Physical dimension of a coefficient, for unit conversion when a file is not in SI units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dimension {
    /// Dimensionless (or per radian: Magic Formula files are always in radians).
    None,
    /// Length (m).
    Length,
    /// Force (N).
    Force,
    /// Pressure (Pa).
    Pressure,
    /// Speed (m/s).
    Speed,
    /// Mass (kg).
    Mass,
    /// Moment of inertia (kg·m²).
    Inertia,
    /// Linear stiffness (N/m).
    Stiffness,
    /// Rotational stiffness (N·m/rad).
    RotationalStiffness,
    /// Linear damping (N·s/m).
    Damping,
    /// Acceleration (m/s²).
    Acceleration,
    /// Frequency (1/s).
    Frequency,
}

macro_rules! mf_coefficients {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident = $key:literal, $default:expr, $dim:ident;
    )*) => {
        /// Every numeric coefficient of a Magic Formula 5.2 / 6.1 / 6.2 property file, SI units.
        ///
        /// See the module documentation for defaults; field docs name the `.tir` key.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default)]
        pub struct MfCoefficients {
            $(
                $(#[doc = $doc])*
                pub $field: f64,
            )*
        }

        impl Default for MfCoefficients {
            /// `MFeval`'s defaults for every key.
            fn default() -> Self {
                Self { $($field: $default,)* }
            }
        }

        impl MfCoefficients {
            /// Every key this struct holds: `(key, MFeval default, dimension)`, in file order.
            pub const KEYS: &'static [(&'static str, f64, Dimension)] =
                &[$(($key, $default, Dimension::$dim),)*];

            /// Sets the coefficient named `key` (upper case, as in `.tir` files).
            /// Returns `false` when no coefficient has that name.
            pub fn set(&mut self, key: &str, value: f64) -> bool {
                match key {
                    $($key => self.$field = value,)*
                    _ => return false,
                }
                true
            }

            /// The coefficient named `key` (upper case), if there is one.
            pub fn get(&self, key: &str) -> Option<f64> {
                match key {
                    $($key => Some(self.$field),)*
                    _ => None,
                }
            }

            /// Every `(key, value)` pair, in file order.
            pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
                [$(($key, self.$field),)*].into_iter()
            }
        }
    };
}

mf_coefficients! {
    // [MODEL]
    /// `LONGVL`: reference speed V0 (m/s).
    longvl = "LONGVL", 16.7, Speed;
    /// `VXLOW`: speed below which the low-speed reductions act (m/s).
    vxlow = "VXLOW", 1.0, Speed;
    /// `ROAD_INCREMENT`: road sampling increment (m); not used.
    road_increment = "ROAD_INCREMENT", 0.01, Length;
    /// `ROAD_DIRECTION`: direction of travelled distance; not used.
    road_direction = "ROAD_DIRECTION", 1.0, None;

    // [DIMENSION]
    /// `UNLOADED_RADIUS`: free tyre radius R0 (m).
    unloaded_radius = "UNLOADED_RADIUS", 0.3135, Length;
    /// `WIDTH`: nominal section width (m).
    width = "WIDTH", 0.205, Length;
    /// `ASPECT_RATIO`: nominal aspect ratio (-).
    aspect_ratio = "ASPECT_RATIO", 0.6, None;
    /// `RIM_RADIUS`: nominal rim radius (m).
    rim_radius = "RIM_RADIUS", 0.1905, Length;
    /// `RIM_WIDTH`: rim width (m).
    rim_width = "RIM_WIDTH", 0.152, Length;

    // [OPERATING_CONDITIONS]
    /// `INFLPRES`: inflation pressure used when the input gives none (Pa).
    inflpres = "INFLPRES", 220_000.0, Pressure;
    /// `NOMPRES`: nominal inflation pressure pi0 of the pressure terms (Pa).
    nompres = "NOMPRES", 220_000.0, Pressure;

    // [INERTIA]
    /// `MASS` (in `[INERTIA]`): tyre mass (kg).
    mass = "MASS", 9.3, Mass;
    /// `IXX`: tyre diametral moment of inertia (kg·m²).
    ixx = "IXX", 0.391, Inertia;
    /// `IYY`: tyre polar moment of inertia (kg·m²).
    iyy = "IYY", 0.736, Inertia;
    /// `BELT_MASS`: belt mass (kg).
    belt_mass = "BELT_MASS", 7.0, Mass;
    /// `BELT_IXX`: belt diametral moment of inertia (kg·m²).
    belt_ixx = "BELT_IXX", 0.34, Inertia;
    /// `BELT_IYY`: belt polar moment of inertia (kg·m²).
    belt_iyy = "BELT_IYY", 0.6, Inertia;
    /// `GRAVITY`: gravity acting on the belt (m/s²).
    gravity = "GRAVITY", -9.81, Acceleration;

    // [VERTICAL]
    /// `FNOMIN`: nominal wheel load Fz0 (N).
    fnomin = "FNOMIN", 4000.0, Force;
    /// `VERTICAL_STIFFNESS`: vertical stiffness Cz0 (N/m).
    vertical_stiffness = "VERTICAL_STIFFNESS", 200_000.0, Stiffness;
    /// `VERTICAL_DAMPING`: vertical damping (N·s/m).
    vertical_damping = "VERTICAL_DAMPING", 50.0, Damping;
    /// `MC_CONTOUR_A`: motorcycle contour ellipse A.
    mc_contour_a = "MC_CONTOUR_A", 0.5, None;
    /// `MC_CONTOUR_B`: motorcycle contour ellipse B.
    mc_contour_b = "MC_CONTOUR_B", 0.5, None;
    /// `BREFF`: low-load stiffness of the effective rolling radius.
    breff = "BREFF", 8.4, None;
    /// `DREFF`: peak value of the effective rolling radius.
    dreff = "DREFF", 0.27, None;
    /// `FREFF`: high-load stiffness of the effective rolling radius.
    freff = "FREFF", 0.07, None;
    /// `Q_RE0`: ratio of free tyre radius to nominal radius.
    q_re0 = "Q_RE0", 1.0, None;
    /// `Q_V1`: tyre radius increase with speed.
    q_v1 = "Q_V1", 0.0, None;
    /// `Q_V2`: vertical stiffness increase with speed.
    q_v2 = "Q_V2", 0.0, None;
    /// `Q_FZ2`: quadratic term of load versus deflection.
    q_fz2 = "Q_FZ2", 1.0e-4, None;
    /// `Q_FCX`: longitudinal force influence on vertical stiffness.
    q_fcx = "Q_FCX", 0.0, None;
    /// `Q_FCY`: lateral force influence on vertical stiffness.
    q_fcy = "Q_FCY", 0.0, None;
    /// `Q_CAM`: stiffness reduction due to camber.
    q_cam = "Q_CAM", 0.0, None;
    /// `PFZ1`: pressure effect on vertical stiffness.
    pfz1 = "PFZ1", 0.0, None;
    /// `BOTTOM_OFFST`: distance to rim when bottoming starts (m).
    bottom_offst = "BOTTOM_OFFST", 0.01, Length;
    /// `BOTTOM_STIFF`: vertical stiffness of the bottomed tyre (N/m).
    bottom_stiff = "BOTTOM_STIFF", 2_000_000.0, Stiffness;

    // [STRUCTURAL]
    /// `LONGITUDINAL_STIFFNESS`: overall longitudinal stiffness (N/m).
    longitudinal_stiffness = "LONGITUDINAL_STIFFNESS", 300_000.0, Stiffness;
    /// `LATERAL_STIFFNESS`: overall lateral stiffness (N/m).
    lateral_stiffness = "LATERAL_STIFFNESS", 100_000.0, Stiffness;
    /// `YAW_STIFFNESS`: overall yaw stiffness (N·m/rad).
    yaw_stiffness = "YAW_STIFFNESS", 5000.0, RotationalStiffness;
    /// `FREQ_LONG`: undamped frequency, fore/aft and vertical mode (Hz).
    freq_long = "FREQ_LONG", 80.0, Frequency;
    /// `FREQ_LAT`: undamped frequency, lateral mode (Hz).
    freq_lat = "FREQ_LAT", 40.0, Frequency;
    /// `FREQ_YAW`: undamped frequency, yaw and camber mode (Hz).
    freq_yaw = "FREQ_YAW", 50.0, Frequency;
    /// `FREQ_WINDUP`: undamped frequency, wind-up mode (Hz).
    freq_windup = "FREQ_WINDUP", 70.0, Frequency;
    /// `DAMP_LONG`: dimensionless damping, fore/aft and vertical mode.
    damp_long = "DAMP_LONG", 0.04, None;
    /// `DAMP_LAT`: dimensionless damping, lateral mode.
    damp_lat = "DAMP_LAT", 0.04, None;
    /// `DAMP_YAW`: dimensionless damping, yaw and camber mode.
    damp_yaw = "DAMP_YAW", 0.04, None;
    /// `DAMP_WINDUP`: dimensionless damping, wind-up mode.
    damp_windup = "DAMP_WINDUP", 0.04, None;
    /// `DAMP_RESIDUAL`: residual damping (proportional to stiffness).
    damp_residual = "DAMP_RESIDUAL", 0.002, None;
    /// `DAMP_VLOW`: additional low-speed damping (proportional to stiffness).
    damp_vlow = "DAMP_VLOW", 0.001, None;
    /// `Q_BVX`: load and speed influence on in-plane translation stiffness.
    q_bvx = "Q_BVX", 0.0, None;
    /// `Q_BVT`: load and speed influence on in-plane rotation stiffness.
    q_bvt = "Q_BVT", 0.0, None;
    /// `PCFX1`: longitudinal carcass stiffness, linear deflection dependency.
    pcfx1 = "PCFX1", 0.0, None;
    /// `PCFX2`: longitudinal carcass stiffness, quadratic deflection dependency.
    pcfx2 = "PCFX2", 0.0, None;
    /// `PCFX3`: longitudinal carcass stiffness, pressure dependency.
    pcfx3 = "PCFX3", 0.0, None;
    /// `PCFY1`: lateral carcass stiffness, linear deflection dependency.
    pcfy1 = "PCFY1", 0.0, None;
    /// `PCFY2`: lateral carcass stiffness, quadratic deflection dependency.
    pcfy2 = "PCFY2", 0.0, None;
    /// `PCFY3`: lateral carcass stiffness, pressure dependency.
    pcfy3 = "PCFY3", 0.0, None;
    /// `PCMZ1`: yaw carcass stiffness, pressure dependency.
    pcmz1 = "PCMZ1", 0.0, None;

    // [CONTACT_PATCH]
    /// `Q_RA1`: square-root term of the contact length.
    q_ra1 = "Q_RA1", 0.5, None;
    /// `Q_RA2`: linear term of the contact length.
    q_ra2 = "Q_RA2", 1.0, None;
    /// `Q_RB1`: root term of the contact width.
    q_rb1 = "Q_RB1", 1.0, None;
    /// `Q_RB2`: linear term of the contact width.
    q_rb2 = "Q_RB2", -1.0, None;
    /// `ELLIPS_SHIFT`: scaling of the distance between front and rear ellipsoid.
    ellips_shift = "ELLIPS_SHIFT", 0.8, None;
    /// `ELLIPS_LENGTH`: semi-major axis of the ellipsoid.
    ellips_length = "ELLIPS_LENGTH", 1.0, None;
    /// `ELLIPS_HEIGHT`: semi-minor axis of the ellipsoid.
    ellips_height = "ELLIPS_HEIGHT", 1.0, None;
    /// `ELLIPS_ORDER`: order of the ellipsoid.
    ellips_order = "ELLIPS_ORDER", 1.8, None;
    /// `ELLIPS_MAX_STEP`: maximum height of a road step (m).
    ellips_max_step = "ELLIPS_MAX_STEP", 0.025, Length;
    /// `ELLIPS_NWIDTH`: number of parallel ellipsoids.
    ellips_nwidth = "ELLIPS_NWIDTH", 10.0, None;
    /// `ELLIPS_NLENGTH`: number of ellipsoids at the sides of the contact patch.
    ellips_nlength = "ELLIPS_NLENGTH", 10.0, None;

    // [*_RANGE]
    /// `PRESMIN`: lowest valid inflation pressure (Pa).
    presmin = "PRESMIN", 10_000.0, Pressure;
    /// `PRESMAX`: highest valid inflation pressure (Pa).
    presmax = "PRESMAX", 1_000_000.0, Pressure;
    /// `FZMIN`: lowest valid load (N); also the low-load reduction of Mx and My.
    fzmin = "FZMIN", 100.0, Force;
    /// `FZMAX`: highest valid load (N).
    fzmax = "FZMAX", 10_000.0, Force;
    /// `KPUMIN`: lowest valid slip ratio.
    kpumin = "KPUMIN", -1.5, None;
    /// `KPUMAX`: highest valid slip ratio.
    kpumax = "KPUMAX", 1.5, None;
    /// `ALPMIN`: lowest valid slip angle (rad).
    alpmin = "ALPMIN", -1.5, None;
    /// `ALPMAX`: highest valid slip angle (rad).
    alpmax = "ALPMAX", 1.5, None;
    /// `CAMMIN`: lowest valid inclination angle (rad).
    cammin = "CAMMIN", -0.175, None;
    /// `CAMMAX`: highest valid inclination angle (rad).
    cammax = "CAMMAX", 0.175, None;

    // [SCALING_COEFFICIENTS]
    /// `LFZO`: scale of the nominal load.
    lfzo = "LFZO", 1.0, None;
    /// `LCX`: scale of the Fx shape factor.
    lcx = "LCX", 1.0, None;
    /// `LMUX`: scale of the longitudinal peak friction.
    lmux = "LMUX", 1.0, None;
    /// `LEX`: scale of the Fx curvature factor.
    lex = "LEX", 1.0, None;
    /// `LKX`: scale of the Fx slip stiffness.
    lkx = "LKX", 1.0, None;
    /// `LHX`: scale of the Fx horizontal shift.
    lhx = "LHX", 1.0, None;
    /// `LVX`: scale of the Fx vertical shift.
    lvx = "LVX", 1.0, None;
    /// `LCY`: scale of the Fy shape factor.
    lcy = "LCY", 1.0, None;
    /// `LMUY`: scale of the lateral peak friction.
    lmuy = "LMUY", 1.0, None;
    /// `LEY`: scale of the Fy curvature factor.
    ley = "LEY", 1.0, None;
    /// `LKY`: scale of the cornering stiffness.
    lky = "LKY", 1.0, None;
    /// `LHY`: scale of the Fy horizontal shift.
    lhy = "LHY", 1.0, None;
    /// `LVY`: scale of the Fy vertical shift.
    lvy = "LVY", 1.0, None;
    /// `LTR`: scale of the pneumatic trail peak.
    ltr = "LTR", 1.0, None;
    /// `LRES`: scale of the residual torque offset.
    lres = "LRES", 1.0, None;
    /// `LXAL`: scale of the alpha influence on Fx.
    lxal = "LXAL", 1.0, None;
    /// `LYKA`: scale of the kappa influence on Fy.
    lyka = "LYKA", 1.0, None;
    /// `LVYKA`: scale of the kappa-induced lateral force.
    lvyka = "LVYKA", 1.0, None;
    /// `LS`: scale of the Fx moment arm in Mz.
    ls = "LS", 1.0, None;
    /// `LKYC`: scale of the camber force stiffness.
    lkyc = "LKYC", 1.0, None;
    /// `LKZC`: scale of the camber torque stiffness.
    lkzc = "LKZC", 1.0, None;
    /// `LVMX`: scale of the Mx vertical shift.
    lvmx = "LVMX", 1.0, None;
    /// `LMX`: scale of the overturning moment.
    lmx = "LMX", 1.0, None;
    /// `LMY`: scale of the rolling-resistance moment.
    lmy = "LMY", 1.0, None;
    /// `LMP`: scale of the parking torque.
    lmp = "LMP", 1.0, None;

    // [LONGITUDINAL_COEFFICIENTS]
    /// `PCX1`: shape factor Cfx.
    pcx1 = "PCX1", 1.65, None;
    /// `PDX1`: longitudinal friction mux at Fz0.
    pdx1 = "PDX1", 1.3, None;
    /// `PDX2`: variation of friction mux with load.
    pdx2 = "PDX2", -0.15, None;
    /// `PDX3`: variation of friction mux with camber squared.
    pdx3 = "PDX3", 0.0, None;
    /// `PEX1`: longitudinal curvature Efx at Fz0.
    pex1 = "PEX1", 0.0, None;
    /// `PEX2`: variation of curvature Efx with load.
    pex2 = "PEX2", 0.0, None;
    /// `PEX3`: variation of curvature Efx with load squared.
    pex3 = "PEX3", 0.0, None;
    /// `PEX4`: curvature factor Efx while driving.
    pex4 = "PEX4", 0.0, None;
    /// `PKX1`: longitudinal slip stiffness Kfx/Fz at Fz0.
    pkx1 = "PKX1", 20.0, None;
    /// `PKX2`: variation of slip stiffness with load.
    pkx2 = "PKX2", 0.0, None;
    /// `PKX3`: exponent of slip stiffness with load.
    pkx3 = "PKX3", 0.0, None;
    /// `PHX1`: horizontal shift Shx at Fz0.
    phx1 = "PHX1", 0.0, None;
    /// `PHX2`: variation of shift Shx with load.
    phx2 = "PHX2", 0.0, None;
    /// `PVX1`: vertical shift Svx/Fz at Fz0.
    pvx1 = "PVX1", 0.0, None;
    /// `PVX2`: variation of shift Svx/Fz with load.
    pvx2 = "PVX2", 0.0, None;
    /// `PPX1`: linear pressure influence on slip stiffness.
    ppx1 = "PPX1", 0.0, None;
    /// `PPX2`: quadratic pressure influence on slip stiffness.
    ppx2 = "PPX2", 0.0, None;
    /// `PPX3`: linear pressure influence on mux.
    ppx3 = "PPX3", 0.0, None;
    /// `PPX4`: quadratic pressure influence on mux.
    ppx4 = "PPX4", 0.0, None;
    /// `RBX1`: slope factor of combined slip Fx reduction.
    rbx1 = "RBX1", 20.0, None;
    /// `RBX2`: variation of the slope Fx reduction with kappa.
    rbx2 = "RBX2", 15.0, None;
    /// `RBX3`: camber influence on the combined slip Fx reduction.
    rbx3 = "RBX3", 0.0, None;
    /// `RCX1`: shape factor of combined slip Fx reduction.
    rcx1 = "RCX1", 1.0, None;
    /// `REX1`: curvature factor of combined Fx.
    rex1 = "REX1", 0.0, None;
    /// `REX2`: curvature factor of combined Fx with load.
    rex2 = "REX2", 0.0, None;
    /// `RHX1`: shift factor of combined slip Fx reduction.
    rhx1 = "RHX1", 0.0, None;

    // [OVERTURNING_COEFFICIENTS]
    /// `QSX1`: vertical shift of the overturning moment.
    qsx1 = "QSX1", 0.0, None;
    /// `QSX2`: camber-induced overturning couple.
    qsx2 = "QSX2", 0.0, None;
    /// `QSX3`: Fy-induced overturning couple.
    qsx3 = "QSX3", 0.0, None;
    /// `QSX4`: mixed load, lateral force and camber on Mx.
    qsx4 = "QSX4", 5.0, None;
    /// `QSX5`: load effect on Mx with lateral force and camber.
    qsx5 = "QSX5", 1.0, None;
    /// `QSX6`: B-factor of load with Mx.
    qsx6 = "QSX6", 10.0, None;
    /// `QSX7`: camber with load on Mx.
    qsx7 = "QSX7", 0.0, None;
    /// `QSX8`: lateral force with load on Mx.
    qsx8 = "QSX8", 0.0, None;
    /// `QSX9`: B-factor of lateral force with load on Mx.
    qsx9 = "QSX9", 0.4, None;
    /// `QSX10`: vertical force with camber on Mx.
    qsx10 = "QSX10", 0.0, None;
    /// `QSX11`: B-factor of vertical force with camber on Mx.
    qsx11 = "QSX11", 5.0, None;
    /// `QSX12`: camber squared induced overturning moment.
    qsx12 = "QSX12", 0.0, None;
    /// `QSX13`: lateral force induced overturning moment.
    qsx13 = "QSX13", 0.0, None;
    /// `QSX14`: lateral force induced overturning moment with camber.
    qsx14 = "QSX14", 0.0, None;
    /// `PPMX1`: inflation pressure influence on Mx.
    ppmx1 = "PPMX1", 0.0, None;

    // [LATERAL_COEFFICIENTS]
    /// `PCY1`: shape factor Cfy.
    pcy1 = "PCY1", 1.3, None;
    /// `PDY1`: lateral friction muy at Fz0.
    pdy1 = "PDY1", 1.1, None;
    /// `PDY2`: variation of friction muy with load.
    pdy2 = "PDY2", -0.15, None;
    /// `PDY3`: variation of friction muy with camber squared.
    pdy3 = "PDY3", 0.0, None;
    /// `PEY1`: lateral curvature Efy at Fz0.
    pey1 = "PEY1", 0.0, None;
    /// `PEY2`: variation of curvature Efy with load.
    pey2 = "PEY2", 0.0, None;
    /// `PEY3`: zero-order camber dependency of curvature Efy.
    pey3 = "PEY3", 0.0, None;
    /// `PEY4`: variation of curvature Efy with camber.
    pey4 = "PEY4", 0.0, None;
    /// `PEY5`: variation of curvature Efy with camber squared.
    pey5 = "PEY5", 0.0, None;
    /// `PKY1`: maximum of cornering stiffness Kfy/Fz0.
    pky1 = "PKY1", -20.0, None;
    /// `PKY2`: load at which Kfy reaches its maximum (in units of Fz0).
    pky2 = "PKY2", 1.0, None;
    /// `PKY3`: variation of Kfy/Fz0 with camber.
    pky3 = "PKY3", 0.0, None;
    /// `PKY4`: curvature of the stiffness Kfy.
    pky4 = "PKY4", 2.0, None;
    /// `PKY5`: peak stiffness variation with camber squared.
    pky5 = "PKY5", 0.0, None;
    /// `PKY6`: Fy camber stiffness factor.
    pky6 = "PKY6", -1.0, None;
    /// `PKY7`: vertical load dependency of the camber stiffness.
    pky7 = "PKY7", 0.0, None;
    /// `PHY1`: horizontal shift Shy at Fz0.
    phy1 = "PHY1", 0.0, None;
    /// `PHY2`: variation of shift Shy with load.
    phy2 = "PHY2", 0.0, None;
    /// `PVY1`: vertical shift Svy/Fz at Fz0.
    pvy1 = "PVY1", 0.0, None;
    /// `PVY2`: variation of shift Svy/Fz with load.
    pvy2 = "PVY2", 0.0, None;
    /// `PVY3`: variation of shift Svy/Fz with camber.
    pvy3 = "PVY3", 0.0, None;
    /// `PVY4`: variation of shift Svy/Fz with camber and load.
    pvy4 = "PVY4", 0.0, None;
    /// `PPY1`: pressure influence on cornering stiffness.
    ppy1 = "PPY1", 0.0, None;
    /// `PPY2`: pressure influence on the load dependency of cornering stiffness.
    ppy2 = "PPY2", 0.0, None;
    /// `PPY3`: linear pressure influence on lateral friction.
    ppy3 = "PPY3", 0.0, None;
    /// `PPY4`: quadratic pressure influence on lateral friction.
    ppy4 = "PPY4", 0.0, None;
    /// `PPY5`: pressure influence on camber stiffness.
    ppy5 = "PPY5", 0.0, None;
    /// `RBY1`: slope factor of combined Fy reduction.
    rby1 = "RBY1", 10.0, None;
    /// `RBY2`: variation of the slope Fy reduction with alpha.
    rby2 = "RBY2", 10.0, None;
    /// `RBY3`: shift term for alpha in the slope Fy reduction.
    rby3 = "RBY3", 0.0, None;
    /// `RBY4`: camber influence on the combined side force stiffness.
    rby4 = "RBY4", 0.0, None;
    /// `RCY1`: shape factor of combined Fy reduction.
    rcy1 = "RCY1", 1.0, None;
    /// `REY1`: curvature factor of combined Fy.
    rey1 = "REY1", 0.0, None;
    /// `REY2`: curvature factor of combined Fy with load.
    rey2 = "REY2", 0.0, None;
    /// `RHY1`: shift factor of combined Fy reduction.
    rhy1 = "RHY1", 0.0, None;
    /// `RHY2`: shift factor of combined Fy reduction with load.
    rhy2 = "RHY2", 0.0, None;
    /// `RVY1`: kappa-induced side force Svyk/(muy Fz) at Fz0.
    rvy1 = "RVY1", 0.0, None;
    /// `RVY2`: variation of Svyk/(muy Fz) with load.
    rvy2 = "RVY2", 0.0, None;
    /// `RVY3`: variation of Svyk/(muy Fz) with camber.
    rvy3 = "RVY3", 0.0, None;
    /// `RVY4`: variation of Svyk/(muy Fz) with alpha.
    rvy4 = "RVY4", 20.0, None;
    /// `RVY5`: variation of Svyk/(muy Fz) with kappa.
    rvy5 = "RVY5", 2.0, None;
    /// `RVY6`: variation of Svyk/(muy Fz) with atan(kappa).
    rvy6 = "RVY6", 10.0, None;

    // [ROLLING_COEFFICIENTS]
    /// `QSY1`: rolling resistance torque coefficient.
    qsy1 = "QSY1", 0.01, None;
    /// `QSY2`: rolling resistance torque depending on Fx.
    qsy2 = "QSY2", 0.0, None;
    /// `QSY3`: rolling resistance torque depending on speed.
    qsy3 = "QSY3", 4.0e-4, None;
    /// `QSY4`: rolling resistance torque depending on speed to the fourth.
    qsy4 = "QSY4", 4.0e-5, None;
    /// `QSY5`: rolling resistance torque depending on camber squared.
    qsy5 = "QSY5", 0.0, None;
    /// `QSY6`: rolling resistance torque depending on load and camber squared.
    qsy6 = "QSY6", 0.0, None;
    /// `QSY7`: rolling resistance torque coefficient, load dependency.
    qsy7 = "QSY7", 0.85, None;
    /// `QSY8`: rolling resistance torque coefficient, pressure dependency.
    qsy8 = "QSY8", -0.4, None;

    // [ALIGNING_COEFFICIENTS]
    /// `QBZ1`: trail slope factor at Fz0.
    qbz1 = "QBZ1", 10.0, None;
    /// `QBZ2`: variation of the trail slope with load.
    qbz2 = "QBZ2", 0.0, None;
    /// `QBZ3`: variation of the trail slope with load squared.
    qbz3 = "QBZ3", 0.0, None;
    /// `QBZ4`: variation of the trail slope with camber.
    qbz4 = "QBZ4", 0.0, None;
    /// `QBZ5`: variation of the trail slope with absolute camber.
    qbz5 = "QBZ5", 0.0, None;
    /// `QBZ9`: slope factor Br of the residual torque.
    qbz9 = "QBZ9", 10.0, None;
    /// `QBZ10`: slope factor Br of the residual torque, from By Cy.
    qbz10 = "QBZ10", 0.0, None;
    /// `QCZ1`: shape factor Ct of the trail.
    qcz1 = "QCZ1", 1.1, None;
    /// `QDZ1`: peak trail Dt.
    qdz1 = "QDZ1", 0.12, None;
    /// `QDZ2`: variation of peak trail with load.
    qdz2 = "QDZ2", 0.0, None;
    /// `QDZ3`: variation of peak trail with camber.
    qdz3 = "QDZ3", 0.0, None;
    /// `QDZ4`: variation of peak trail with camber squared.
    qdz4 = "QDZ4", 0.0, None;
    /// `QDZ6`: peak residual torque Dmr.
    qdz6 = "QDZ6", 0.0, None;
    /// `QDZ7`: variation of peak residual torque with load.
    qdz7 = "QDZ7", 0.0, None;
    /// `QDZ8`: variation of peak residual torque with camber.
    qdz8 = "QDZ8", -0.05, None;
    /// `QDZ9`: variation of peak residual torque with camber and load.
    qdz9 = "QDZ9", 0.0, None;
    /// `QDZ10`: variation of peak residual torque with camber squared.
    qdz10 = "QDZ10", 0.0, None;
    /// `QDZ11`: variation of peak residual torque with camber squared and load.
    qdz11 = "QDZ11", 0.0, None;
    /// `QEZ1`: trail curvature Et at Fz0.
    qez1 = "QEZ1", 0.0, None;
    /// `QEZ2`: variation of curvature Et with load.
    qez2 = "QEZ2", 0.0, None;
    /// `QEZ3`: variation of curvature Et with load squared.
    qez3 = "QEZ3", 0.0, None;
    /// `QEZ4`: variation of curvature Et with the sign of alpha-t.
    qez4 = "QEZ4", 0.0, None;
    /// `QEZ5`: variation of curvature Et with camber and the sign of alpha-t.
    qez5 = "QEZ5", 0.0, None;
    /// `QHZ1`: trail horizontal shift Sht at Fz0.
    qhz1 = "QHZ1", 0.0, None;
    /// `QHZ2`: variation of shift Sht with load.
    qhz2 = "QHZ2", 0.0, None;
    /// `QHZ3`: variation of shift Sht with camber.
    qhz3 = "QHZ3", 0.0, None;
    /// `QHZ4`: variation of shift Sht with camber and load.
    qhz4 = "QHZ4", 0.0, None;
    /// `PPZ1`: pressure effect on the trail.
    ppz1 = "PPZ1", 0.0, None;
    /// `PPZ2`: pressure effect on the residual torque.
    ppz2 = "PPZ2", 0.0, None;
    /// `SSZ1`: nominal moment arm of Fx in Mz, divided by R0.
    ssz1 = "SSZ1", 0.0, None;
    /// `SSZ2`: variation of the Fx moment arm with Fy/Fz0.
    ssz2 = "SSZ2", 0.0, None;
    /// `SSZ3`: variation of the Fx moment arm with camber.
    ssz3 = "SSZ3", 0.0, None;
    /// `SSZ4`: variation of the Fx moment arm with camber and load.
    ssz4 = "SSZ4", 0.0, None;

    // [TURNSLIP_COEFFICIENTS] (read, not used: turn slip is off)
    /// `PDXP1`: peak Fx reduction due to spin.
    pdxp1 = "PDXP1", 0.4, None;
    /// `PDXP2`: peak Fx reduction due to spin, load dependency.
    pdxp2 = "PDXP2", 0.0, None;
    /// `PDXP3`: peak Fx reduction due to spin, kappa dependency.
    pdxp3 = "PDXP3", 0.0, None;
    /// `PKYP1`: cornering stiffness reduction due to spin.
    pkyp1 = "PKYP1", 1.0, None;
    /// `PDYP1`: peak Fy reduction due to spin.
    pdyp1 = "PDYP1", 0.4, None;
    /// `PDYP2`: peak Fy reduction due to spin, load dependency.
    pdyp2 = "PDYP2", 0.0, None;
    /// `PDYP3`: peak Fy reduction due to spin, alpha dependency.
    pdyp3 = "PDYP3", 0.0, None;
    /// `PDYP4`: peak Fy reduction due to square root of spin.
    pdyp4 = "PDYP4", 0.0, None;
    /// `PHYP1`: Fy-alpha curve lateral shift limitation.
    phyp1 = "PHYP1", 1.0, None;
    /// `PHYP2`: Fy-alpha curve maximum lateral shift.
    phyp2 = "PHYP2", 0.15, None;
    /// `PHYP3`: Fy-alpha curve maximum lateral shift, load dependency.
    phyp3 = "PHYP3", 0.0, None;
    /// `PHYP4`: Fy-alpha curve maximum lateral shift, curvature.
    phyp4 = "PHYP4", -4.0, None;
    /// `PECP1`: camber with respect to spin reduction factor.
    pecp1 = "PECP1", 0.5, None;
    /// `PECP2`: camber with respect to spin reduction factor, load dependency.
    pecp2 = "PECP2", 0.0, None;
    /// `QDTP1`: pneumatic trail reduction factor due to turn slip.
    qdtp1 = "QDTP1", 10.0, None;
    /// `QCRP1`: turning moment at constant turning and zero speed.
    qcrp1 = "QCRP1", 0.2, None;
    /// `QCRP2`: turn slip moment at 90 degrees slip angle.
    qcrp2 = "QCRP2", 0.1, None;
    /// `QBRP1`: residual (spin) torque reduction factor due to side slip.
    qbrp1 = "QBRP1", 0.1, None;
    /// `QDRP1`: turn slip moment peak magnitude.
    qdrp1 = "QDRP1", 1.0, None;

    // MF 5.2 specifics
    /// `Q_A1`: square-root load term of the contact length (MF 5.2).
    q_a1 = "Q_A1", 0.0, None;
    /// `Q_A2`: linear load term of the contact length (MF 5.2).
    q_a2 = "Q_A2", 0.0, None;
    /// `PHY3`: variation of shift Shy with camber (MF 5.2).
    phy3 = "PHY3", 0.0, None;
    /// `PTX1`: relaxation length SigKap0/Fz at Fz0 (MF 5.2).
    ptx1 = "PTX1", 0.0, None;
    /// `PTX2`: variation of SigKap0/Fz with load (MF 5.2).
    ptx2 = "PTX2", 0.0, None;
    /// `PTX3`: variation of SigKap0/Fz with exponent of load (MF 5.2).
    ptx3 = "PTX3", 0.0, None;
    /// `PTY1`: peak value of relaxation length SigAlp0/R0 (MF 5.2).
    pty1 = "PTY1", 0.0, None;
    /// `PTY2`: value of `Fz/Fz0` where `SigAlp0` is extreme (MF 5.2).
    pty2 = "PTY2", 0.0, None;
    /// `LSGKP`: scale of the longitudinal relaxation length (MF 5.2).
    lsgkp = "LSGKP", 1.0, None;
    /// `LSGAL`: scale of the lateral relaxation length (MF 5.2).
    lsgal = "LSGAL", 1.0, None;

    // MF 6.2 (MF-Swift) specifics
    /// `Q_FCY2`: explicit load dependency of the lateral force influence on vertical stiffness.
    q_fcy2 = "Q_FCY2", 0.0, None;
    /// `Q_CAM1`: linear load-dependent camber influence on vertical stiffness.
    q_cam1 = "Q_CAM1", 0.0, None;
    /// `Q_CAM2`: quadratic load-dependent camber influence on vertical stiffness.
    q_cam2 = "Q_CAM2", 0.0, None;
    /// `Q_CAM3`: load and camber dependent reduction of vertical stiffness.
    q_cam3 = "Q_CAM3", 0.0, None;
    /// `Q_FYS1`: combined camber and side slip effect on vertical stiffness (constant).
    q_fys1 = "Q_FYS1", 0.0, None;
    /// `Q_FYS2`: combined camber and side slip effect on vertical stiffness (linear).
    q_fys2 = "Q_FYS2", 0.0, None;
    /// `Q_FYS3`: combined camber and side slip effect on vertical stiffness (quadratic).
    q_fys3 = "Q_FYS3", 0.0, None;
    /// `ENV_C1`: effective height attenuation of the road envelope.
    env_c1 = "ENV_C1", 0.0, None;
    /// `ENV_C2`: effective plane angle attenuation of the road envelope.
    env_c2 = "ENV_C2", 0.0, None;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        let mut c = MfCoefficients::default();
        for (i, &(key, default, _)) in MfCoefficients::KEYS.iter().enumerate() {
            assert!(seen.insert(key), "duplicate key {key}");
            assert_eq!(c.get(key), Some(default));
            let value = 1000.0 + i as f64;
            assert!(c.set(key, value));
            assert_eq!(c.get(key), Some(value));
        }
        assert!(!c.set("NOT_A_KEY", 1.0));
        assert_eq!(c.get("pky1"), None, "keys are upper case");
        assert_eq!(c.iter().count(), MfCoefficients::KEYS.len());
    }
}
