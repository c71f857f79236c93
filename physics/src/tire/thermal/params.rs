//! [`TyreThermalParams`]: the parameters of one tyre's thermal, pressure and wear model, with
//! defaults for a street performance tyre (P245/45ZR17 class) and their reasoning.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// Thermal, grip-window and wear parameters of one tyre (SI units; temperatures in °C).
///
/// The defaults describe a street performance tyre of the P245/45ZR17 class (outer radius
/// 0.326 m, section width 0.245 m, rim 17 in, about 11 kg); each field says how its default
/// was estimated. They are lumped values: they set time constants and steady temperatures,
/// not a finite-element picture of the tyre.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TyreThermalParams {
    /// Heat capacity of the tread node (J/K): the outer tread rubber. Default 4000: about
    /// 2.1 kg of tread compound (the outer 4 mm of a 0.245 m x 2.05 m band at 1150 kg/m³)
    /// at 1900 J/(kg K), the specific heat of filled rubber.
    pub tread_heat_capacity_j_per_k: f64,
    /// Heat capacity of the carcass node (J/K): under-tread, belts, plies, sidewalls and
    /// inner liner. Default 12000: about 9 kg of rubber, steel and textile at a mass-weighted
    /// 1350 J/(kg K) (rubber 1900, steel 460).
    pub carcass_heat_capacity_j_per_k: f64,
    /// Heat capacity of the inflation gas (J/K). Default 90: about 36 L of air at 3.1 bar
    /// absolute and 20 °C is 0.13 kg, times `c_v` = 718 J/(kg K) (constant volume).
    pub gas_heat_capacity_j_per_k: f64,
    /// Heat capacity of the rim node (J/K): the wheel, which the brakes heat. Default 9000:
    /// a 10 kg aluminium wheel at 900 J/(kg K).
    pub rim_heat_capacity_j_per_k: f64,
    /// Conductance between tread and carcass (W/K). Default 25: rubber (0.25 W/(m K)) over a
    /// 0.5 m² tread band, 5 mm between the two nodes' centres.
    pub tread_carcass_conductance_w_per_k: f64,
    /// Conductance between carcass and gas (W/K). Default 15: about 0.6 m² of inner liner
    /// at a convection coefficient of 25 W/(m² K) inside a rolling tyre.
    pub carcass_gas_conductance_w_per_k: f64,
    /// Conductance between rim and gas (W/K): how brake heat reaches the gas. Default 8:
    /// about 0.3 m² of rim well at 25 W/(m² K).
    pub rim_gas_conductance_w_per_k: f64,
    /// Conductance between the tread and the track surface while in contact (W/K). Default
    /// 44: two resistances in series. (1) The contact itself: each piece of tread touches the
    /// asphalt for `t_c` = patch length / speed (0.15 m at 31 m/s: 4.8 ms), two semi-infinite
    /// bodies brought together (Carslaw and Jaeger, *Conduction of Heat in Solids*, 1959),
    /// which pass a mean `2 e_r e_a / ((e_r + e_a) sqrt(pi t_c))` = 7900 W/(m² K) with the
    /// effusivities `e = sqrt(k rho c)` of tread rubber (0.25 W/(m K), 1150 kg/m³,
    /// 1900 J/(kg K): 739) and asphalt (1.0 W/(m K), 2300 kg/m³, 900 J/(kg K): 1439), over a
    /// 0.02 m² patch (3.7 kN / 1.9 bar): 158 W/K. (2) The rubber between the tread node's
    /// centre and its surface, 2 mm over the whole 0.5 m² band (every part of it passes
    /// through the patch): 0.25 x 0.5 / 0.002 = 62 W/K. In series: 44 W/K (42 at 20 m/s,
    /// 47 at 45 m/s, so taken as constant). The former 20 W/K assumed 1000 W/(m² K) at the
    /// patch, an eighth of what transient conduction gives.
    pub road_conductance_w_per_k: f64,
    /// Outer tread area cooled by the air (m²). Default 0.5: `2 pi r w` = 2π x 0.326 x 0.245.
    pub tread_area_m2: f64,
    /// Sidewall area cooled by the air, both sides (m²): the carcass node's outer surface.
    /// Default 0.37: `2 pi (r_outer² - r_rim²)` with 0.326 m and 0.216 m.
    pub sidewall_area_m2: f64,
    /// Rim area cooled by the air (m²). Default 0.25: the wheel face and spokes.
    pub rim_area_m2: f64,
    /// Convection coefficient in still air `h0` (W/(m² K)). Default 10: natural convection of
    /// a warm tyre in air (about 5) plus its radiation, linearised (`4 eps sigma T³` = 6 for
    /// rubber's emissivity of about 0.9 near 300 K).
    pub convection_still_air_w_per_m2_k: f64,
    /// Forced-convection coefficient at 1 m/s `h1` (W/(m² K)); the coefficient is
    /// `h = h0 + h1 (v / 1 m/s)^0.8` at speed `v`. Default 3.4: the tread is a short cylinder
    /// of the tyre's diameter (0.652 m) across the air stream, whose mean coefficient Churchill
    /// and Bernstein give ("A correlating equation for forced convection from gases and
    /// liquids to a circular cylinder in crossflow", J. Heat Transfer 99, 1977):
    /// `Nu = 0.3 + 0.62 Re^0.5 Pr^(1/3) / (1 + (0.4/Pr)^(2/3))^(1/4) (1 + (Re/282000)^(5/8))^(4/5)`
    /// in air (k 0.026 W/(m K), nu 1.5e-5 m²/s, Pr 0.71): 43.7, 63.5, 87.9, 113.6 W/(m² K)
    /// at 20, 31, 45, 60 m/s, which `10 + 3.4 v^0.8` follows within 9 % from 20 to 45 m/s
    /// (the laps' speeds) and 12 % at 60 m/s (47.4, 63.0, 81.5, 99.9). The sidewalls, discs
    /// spinning at `v / r`, agree: the turbulent rotating disc's mean `Nu = 0.015 Re^0.8`
    /// (Cobb and Saunders, "Heat transfer from a rotating disk", Proc. R. Soc. A 236, 1956)
    /// gives 55 W/(m² K) at 31 m/s. The former 7 took the tread for a 0.5 m flat plate fully
    /// turbulent in the free stream, which cools twice as hard as either geometry.
    pub convection_at_1_m_per_s_w_per_m2_k: f64,
    /// Share of the contact's sliding power that heats the tread (-); the rest heats the
    /// road directly (the road also takes heat back from the tread by conduction,
    /// `road_conductance_w_per_k`). Default 0.85, an estimate: the slip power
    /// `|Fx Vsx| + |Fy Vsy|` is mostly lost inside the rubber, not at the interface. At small
    /// slip it is the tread's and carcass's shear deformation relaxing (hysteresis); when
    /// the tread slides on a rough dry road, rubber friction is mostly hysteresis of the
    /// rubber deformed by the asperities (Grosch, "The relation between the friction and
    /// visco-elastic properties of rubber", Proc. R. Soc. A 274, 1963; Moore, *The Friction
    /// of Pneumatic Tyres*, 1975; Persson, "Theory of rubber friction and contact mechanics",
    /// J. Chem. Phys. 115, 2001), heat made in the rubber. Only the adhesive part is made at
    /// the interface and shared by effusivity (Blok): rubber 739, asphalt 1439, so 0.66 of
    /// it to the road. Taking the adhesive part as a quarter of the dry friction (an
    /// estimate; hysteresis dominates on asphalt in the sources) leaves 1 - 0.25 x 0.66 =
    /// 0.84 to the tyre. The former 0.5 split all of the slip power as if it were interfacial
    /// friction between two like bodies.
    pub sliding_heat_to_tyre_fraction: f64,
    /// Share of the rolling (hysteresis) loss that heats the tread (-); the rest heats the
    /// carcass. Default 0.5: the tread band causes about half the rolling loss of a radial
    /// car tyre in the usual breakdowns (tread, belts, sidewalls, bead).
    pub rolling_loss_to_tread_fraction: f64,
    /// Share of the brake's power that reaches the rim node (-); the rest stays in the disc
    /// and leaves with its cooling air. Default 0.05: a road car's wheel warms by a few
    /// degrees per hard stop.
    pub brake_heat_to_rim_fraction: f64,
    /// Tread temperature of peak grip (°C). Default 80: street performance tyres work
    /// best around 80 to 90 °C.
    pub optimum_temp_c: f64,
    /// Half width of the temperature window (°C): at `optimum ± half width` the grip factor
    /// is `grip_at_window_edge`. Default 60: a street tyre's wide window (20 to 140 °C).
    pub window_half_width_c: f64,
    /// Grip factor at the window's edges (-, in (0, 1]). Default 0.98: a street tyre loses
    /// little grip cold, unlike a slick.
    pub grip_at_window_edge: f64,
    /// Lowest grip factor from temperature, far outside the window (-, in (0, 1]). Default 0.9.
    pub min_grip_factor: f64,
    /// Tread used per joule of sliding energy at the contact (1/J); the wear is the fraction
    /// of the tread used, 0 new to 1 worn out. Default 1e-8: a street tyre driven hard on a
    /// circuit lasts about 1000 km, and the Corvette lapping the circuit at 0.7 g slides about
    /// 100 kJ per tyre and kilometre, so a life of about 100 MJ of sliding.
    pub wear_per_sliding_energy_per_j: f64,
    /// Grip lost at full wear (-, in [0, 1)): the wear factor is `1 - loss * wear`.
    /// Default 0.1.
    pub grip_loss_at_full_wear: f64,
}

impl Default for TyreThermalParams {
    fn default() -> Self {
        Self {
            tread_heat_capacity_j_per_k: 4000.0,
            carcass_heat_capacity_j_per_k: 12_000.0,
            gas_heat_capacity_j_per_k: 90.0,
            rim_heat_capacity_j_per_k: 9000.0,
            tread_carcass_conductance_w_per_k: 25.0,
            carcass_gas_conductance_w_per_k: 15.0,
            rim_gas_conductance_w_per_k: 8.0,
            road_conductance_w_per_k: 44.0,
            tread_area_m2: 0.5,
            sidewall_area_m2: 0.37,
            rim_area_m2: 0.25,
            convection_still_air_w_per_m2_k: 10.0,
            convection_at_1_m_per_s_w_per_m2_k: 3.4,
            sliding_heat_to_tyre_fraction: 0.85,
            rolling_loss_to_tread_fraction: 0.5,
            brake_heat_to_rim_fraction: 0.05,
            optimum_temp_c: 80.0,
            window_half_width_c: 60.0,
            grip_at_window_edge: 0.98,
            min_grip_factor: 0.9,
            wear_per_sliding_energy_per_j: 1e-8,
            grip_loss_at_full_wear: 0.1,
        }
    }
}

impl TyreThermalParams {
    /// The field names, as files write them (RON fields; `.tir` keys, case-insensitive).
    pub const FIELDS: [&'static str; 22] = [
        "tread_heat_capacity_j_per_k",
        "carcass_heat_capacity_j_per_k",
        "gas_heat_capacity_j_per_k",
        "rim_heat_capacity_j_per_k",
        "tread_carcass_conductance_w_per_k",
        "carcass_gas_conductance_w_per_k",
        "rim_gas_conductance_w_per_k",
        "road_conductance_w_per_k",
        "tread_area_m2",
        "sidewall_area_m2",
        "rim_area_m2",
        "convection_still_air_w_per_m2_k",
        "convection_at_1_m_per_s_w_per_m2_k",
        "sliding_heat_to_tyre_fraction",
        "rolling_loss_to_tread_fraction",
        "brake_heat_to_rim_fraction",
        "optimum_temp_c",
        "window_half_width_c",
        "grip_at_window_edge",
        "min_grip_factor",
        "wear_per_sliding_energy_per_j",
        "grip_loss_at_full_wear",
    ];

    /// The field called `name` (one of [`Self::FIELDS`], any case), for formats that give the
    /// parameters as `KEY = value` lines; `None` for an unknown name.
    pub fn field_mut(&mut self, name: &str) -> Option<&mut f64> {
        let fields: [&mut f64; 22] = [
            &mut self.tread_heat_capacity_j_per_k,
            &mut self.carcass_heat_capacity_j_per_k,
            &mut self.gas_heat_capacity_j_per_k,
            &mut self.rim_heat_capacity_j_per_k,
            &mut self.tread_carcass_conductance_w_per_k,
            &mut self.carcass_gas_conductance_w_per_k,
            &mut self.rim_gas_conductance_w_per_k,
            &mut self.road_conductance_w_per_k,
            &mut self.tread_area_m2,
            &mut self.sidewall_area_m2,
            &mut self.rim_area_m2,
            &mut self.convection_still_air_w_per_m2_k,
            &mut self.convection_at_1_m_per_s_w_per_m2_k,
            &mut self.sliding_heat_to_tyre_fraction,
            &mut self.rolling_loss_to_tread_fraction,
            &mut self.brake_heat_to_rim_fraction,
            &mut self.optimum_temp_c,
            &mut self.window_half_width_c,
            &mut self.grip_at_window_edge,
            &mut self.min_grip_factor,
            &mut self.wear_per_sliding_energy_per_j,
            &mut self.grip_loss_at_full_wear,
        ];
        Self::FIELDS
            .iter()
            .zip(fields)
            .find(|(field, _)| field.eq_ignore_ascii_case(name))
            .map(|(_, value)| value)
    }

    /// The convection coefficient `h0 + h1 (v / 1 m/s)^0.8` at air speed `speed_m_per_s`
    /// (W/(m² K)); negative and non-finite speeds count as still air.
    pub fn convection_w_per_m2_k(&self, speed_m_per_s: f64) -> f64 {
        self.convection_at_speed_factor(Self::convection_speed_factor(speed_m_per_s))
    }

    /// The air speed's share of the convection, `(v / 1 m/s)^0.8`, the same for every tyre of
    /// a car: computed once per step (a power is costly) and handed to
    /// [`TyreThermalParams::convection_at_speed_factor`]. Negative and non-finite speeds count
    /// as still air.
    pub fn convection_speed_factor(speed_m_per_s: f64) -> f64 {
        let v = if speed_m_per_s.is_finite() {
            speed_m_per_s.abs()
        } else {
            0.0
        };
        v.powf(0.8)
    }

    /// The convection coefficient `h0 + h1 factor` (W/(m² K)) for the air speed's `factor`
    /// from [`TyreThermalParams::convection_speed_factor`]: the same bits as
    /// [`TyreThermalParams::convection_w_per_m2_k`] at that speed.
    pub fn convection_at_speed_factor(&self, factor: f64) -> f64 {
        self.convection_still_air_w_per_m2_k + self.convection_at_1_m_per_s_w_per_m2_k * factor
    }
}

impl Validate for TyreThermalParams {
    fn validate(&self, v: &mut Validator) {
        v.positive(
            "tread_heat_capacity_j_per_k",
            self.tread_heat_capacity_j_per_k,
        );
        v.positive(
            "carcass_heat_capacity_j_per_k",
            self.carcass_heat_capacity_j_per_k,
        );
        v.positive("gas_heat_capacity_j_per_k", self.gas_heat_capacity_j_per_k);
        v.positive("rim_heat_capacity_j_per_k", self.rim_heat_capacity_j_per_k);
        for (field, value) in [
            (
                "tread_carcass_conductance_w_per_k",
                self.tread_carcass_conductance_w_per_k,
            ),
            (
                "carcass_gas_conductance_w_per_k",
                self.carcass_gas_conductance_w_per_k,
            ),
            (
                "rim_gas_conductance_w_per_k",
                self.rim_gas_conductance_w_per_k,
            ),
            ("road_conductance_w_per_k", self.road_conductance_w_per_k),
            ("tread_area_m2", self.tread_area_m2),
            ("sidewall_area_m2", self.sidewall_area_m2),
            ("rim_area_m2", self.rim_area_m2),
            (
                "convection_still_air_w_per_m2_k",
                self.convection_still_air_w_per_m2_k,
            ),
            (
                "convection_at_1_m_per_s_w_per_m2_k",
                self.convection_at_1_m_per_s_w_per_m2_k,
            ),
            (
                "wear_per_sliding_energy_per_j",
                self.wear_per_sliding_energy_per_j,
            ),
        ] {
            v.non_negative(field, value);
        }
        for (field, value) in [
            (
                "sliding_heat_to_tyre_fraction",
                self.sliding_heat_to_tyre_fraction,
            ),
            (
                "rolling_loss_to_tread_fraction",
                self.rolling_loss_to_tread_fraction,
            ),
            (
                "brake_heat_to_rim_fraction",
                self.brake_heat_to_rim_fraction,
            ),
        ] {
            v.in_range(field, value, 0.0, 1.0);
        }
        v.in_range("optimum_temp_c", self.optimum_temp_c, -50.0, 300.0);
        v.require(
            self.window_half_width_c.is_finite()
                && self.window_half_width_c > 0.0
                && self.window_half_width_c <= 300.0,
            "window_half_width_c",
            "must be finite, positive and at most 300",
        );
        v.require(
            self.grip_at_window_edge.is_finite()
                && self.grip_at_window_edge > 0.0
                && self.grip_at_window_edge <= 1.0,
            "grip_at_window_edge",
            "must be above 0 and at most 1",
        );
        v.require(
            self.min_grip_factor.is_finite()
                && self.min_grip_factor > 0.0
                && self.min_grip_factor <= 1.0,
            "min_grip_factor",
            "must be above 0 and at most 1",
        );
        if self.min_grip_factor.is_finite()
            && self.grip_at_window_edge.is_finite()
            && self.min_grip_factor > self.grip_at_window_edge
        {
            v.fail(
                "min_grip_factor",
                format!(
                    "must not exceed grip_at_window_edge ({} > {})",
                    self.min_grip_factor, self.grip_at_window_edge
                ),
            );
        }
        v.require(
            self.grip_loss_at_full_wear.is_finite()
                && (0.0..1.0).contains(&self.grip_loss_at_full_wear),
            "grip_loss_at_full_wear",
            "must be at least 0 and below 1",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::Validate;

    #[test]
    fn defaults_are_valid() {
        TyreThermalParams::default()
            .check()
            .expect("valid defaults");
    }

    #[test]
    fn bad_values_name_their_fields() {
        let p = TyreThermalParams {
            tread_heat_capacity_j_per_k: f64::NAN,
            road_conductance_w_per_k: -1.0,
            sliding_heat_to_tyre_fraction: 1.5,
            window_half_width_c: 0.0,
            grip_at_window_edge: 0.8,
            min_grip_factor: 0.95,
            grip_loss_at_full_wear: 1.0,
            ..TyreThermalParams::default()
        };
        let err = p.check().expect_err("invalid");
        let paths: Vec<&str> = err.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "tread_heat_capacity_j_per_k",
                "road_conductance_w_per_k",
                "sliding_heat_to_tyre_fraction",
                "window_half_width_c",
                "min_grip_factor",
                "grip_loss_at_full_wear",
            ],
            "{err}"
        );
    }

    /// Every name of `FIELDS` reaches its own field, in any case (that they are the serde
    /// names is checked where files are read, in `gripline-formats`).
    #[test]
    fn field_names_reach_their_fields() {
        let defaults = TyreThermalParams::default();
        for (i, name) in TyreThermalParams::FIELDS.iter().enumerate() {
            let mut p = defaults.clone();
            let value = 1000.0 + f64::from(u8::try_from(i).expect("few fields"));
            *p.field_mut(&name.to_ascii_uppercase()).expect(name) = value;
            let mut changed = 0;
            for other in TyreThermalParams::FIELDS {
                let mut a = p.clone();
                let mut b = defaults.clone();
                let (a, b) = (
                    *a.field_mut(other).expect(other),
                    *b.field_mut(other).expect(other),
                );
                if a.to_bits() != b.to_bits() {
                    changed += 1;
                    assert_eq!(other, *name);
                }
            }
            assert_eq!(changed, 1, "{name}");
        }
        assert!(defaults.clone().field_mut("banana").is_none());
    }

    /// `h = h0 + h1 v^0.8`: 10 + 3.4 x 30^0.8 = 61.66 W/(m² K) at 30 m/s.
    #[test]
    fn convection_rises_with_speed_to_the_power_0_8() {
        let p = TyreThermalParams::default();
        assert!((p.convection_w_per_m2_k(0.0) - 10.0).abs() < 1e-12);
        assert!((p.convection_w_per_m2_k(30.0) - 61.66).abs() < 0.01);
        assert!((p.convection_w_per_m2_k(-30.0) - p.convection_w_per_m2_k(30.0)).abs() < 1e-12);
        assert!((p.convection_w_per_m2_k(f64::NAN) - 10.0).abs() < 1e-12);
    }

    /// The default convection against the correlation it comes from: Churchill and Bernstein's
    /// mean coefficient of a 0.652 m cylinder in crossflow in air (k 0.026 W/(m K),
    /// nu 1.5e-5 m²/s, Pr 0.71), worked out by hand from the published equation: 43.7, 63.5,
    /// 87.9 and 113.6 W/(m² K) at 20, 31, 45 and 60 m/s. Within 9 % over the laps' speeds,
    /// 12 % at 60 m/s.
    #[test]
    fn default_convection_follows_a_cylinder_in_crossflow() {
        let p = TyreThermalParams::default();
        for (speed, reference, tolerance) in [
            (20.0, 43.7, 0.09),
            (31.0, 63.5, 0.09),
            (45.0, 87.9, 0.09),
            (60.0, 113.6, 0.13),
        ] {
            let h = p.convection_w_per_m2_k(speed);
            assert!(
                (h / reference - 1.0).abs() < tolerance,
                "{speed} m/s: {h} against {reference} W/(m² K)"
            );
        }
    }

    /// The default road conductance against its derivation (Carslaw and Jaeger's contact of
    /// two semi-infinite bodies): effusivities 739 (tread rubber) and 1439 (asphalt)
    /// W s^0.5/(m² K), 4.8 ms in a 0.02 m² patch, in series with 2 mm of rubber over a
    /// 0.5 m² band: 2 x 488 / sqrt(pi x 0.0048) = 7950 W/(m² K), 159 W/K, and 62.5 W/K,
    /// together 44.9 W/K; the default within 3 %.
    #[test]
    fn default_road_conductance_follows_contact_conduction() {
        let p = TyreThermalParams::default();
        assert!((p.road_conductance_w_per_k / 44.9 - 1.0).abs() < 0.03);
    }
}
