//! The keys a `.tir` file may hold, which of them a file must give, which are read and
//! which are only recognised, and the units a `[UNITS]` section may state with their factors
//! to SI: the tables the parser ([`super`]) looks keys up in.

use gripline_physics::tire::magic_formula::MfCoefficients;

/// The section of Gripline's thermal parameters.
pub(super) const THERMAL_SECTION: &str = "GRIPLINE_THERMAL";

/// Keys a Magic Formula file of any version must give.
pub(super) const REQUIRED: &[&str] = &[
    "FNOMIN",
    "UNLOADED_RADIUS",
    "PCX1",
    "PDX1",
    "PKX1",
    "PCY1",
    "PDY1",
    "PKY1",
    "QBZ1",
    "QCZ1",
    "QDZ1",
];

/// Keys that MF 6.1 and 6.2 files must give in addition.
pub(super) const REQUIRED_MF6: &[&str] = &["NOMPRES"];

/// Header entries: recorded, not coefficients.
pub(super) const HEADER_KEYS: &[&str] = &[
    "FILE_TYPE",
    "FILE_VERSION",
    "FILE_FORMAT",
    "PROPERTY_FILE_FORMAT",
    "FUNCTION_NAME",
    "TYRESIDE",
    "USE_MODE",
    "N_TIRE_STATES",
    "USER_SUB_ID",
    "HMAX_LOCAL",
    "SWITCH_INTEG",
    "TIME_SWITCH_INTEG",
];

/// Keys that `MFeval` reads past (MF 5.2 camber scalings, `LMUV`, which `MFeval` fixes at 0, the
/// vertical stiffness scale `LCZ`, ...): known, but not used.
pub(super) const IGNORED_KEYS: &[&str] = &[
    "LCZ", "LGAX", "LGAY", "LGAZ", "LMUV", "QBZ6", "QDZ5", "QTZ1", "MBELT",
];

/// Keys the steady-state equations use whose `MFeval` default is not zero (scaling factors,
/// which default to 1, left out): when missing, the warning lists them.
pub(super) const USED_WITH_DEFAULT: &[&str] = &[
    "LONGVL",
    "VXLOW",
    "INFLPRES",
    "VERTICAL_STIFFNESS",
    "BREFF",
    "DREFF",
    "FREFF",
    "Q_RE0",
    "FZMIN",
    "PDX2",
    "PDY2",
    "PKY2",
    "PKY4",
    "PKY6",
    "RBX1",
    "RBX2",
    "RCX1",
    "RBY1",
    "RBY2",
    "RCY1",
    "RVY4",
    "RVY5",
    "RVY6",
    "QSX4",
    "QSX5",
    "QSX6",
    "QSX9",
    "QSX11",
    "QSY1",
    "QSY3",
    "QSY4",
    "QSY7",
    "QSY8",
    "QBZ9",
    "QDZ8",
];

/// Input ranges: when missing, the warning says `MFeval`'s defaults apply with limits on.
pub(super) const RANGE_KEYS: &[&str] = &[
    "FZMIN", "FZMAX", "KPUMIN", "KPUMAX", "ALPMIN", "ALPMAX", "CAMMIN", "CAMMAX", "PRESMIN",
    "PRESMAX",
];

/// Unit quantities of `[UNITS]`.
pub(super) const UNIT_KEYS: &[&str] = &["LENGTH", "FORCE", "ANGLE", "MASS", "TIME", "PRESSURE"];

/// Units the parser converts: quantity, accepted names (lower case), factor to SI.
pub(super) const UNIT_TABLE: &[(&str, &[&str], f64)] = &[
    ("LENGTH", &["meter", "meters", "metre", "metres", "m"], 1.0),
    (
        "LENGTH",
        &[
            "millimeter",
            "millimeters",
            "millimetre",
            "millimetres",
            "mm",
        ],
        1e-3,
    ),
    (
        "LENGTH",
        &[
            "centimeter",
            "centimeters",
            "centimetre",
            "centimetres",
            "cm",
        ],
        1e-2,
    ),
    (
        "LENGTH",
        &["kilometer", "kilometers", "kilometre", "kilometres", "km"],
        1e3,
    ),
    ("LENGTH", &["inch", "inches", "in"], 0.0254),
    ("LENGTH", &["foot", "feet", "ft"], 0.3048),
    ("FORCE", &["newton", "newtons", "n"], 1.0),
    ("FORCE", &["kilonewton", "kilonewtons", "kn"], 1e3),
    (
        "FORCE",
        &[
            "pound_force",
            "pounds_force",
            "lbf",
            "pound",
            "pounds",
            "lb",
        ],
        4.448_221_615_260_5,
    ),
    ("FORCE", &["kilogram_force", "kgf"], 9.806_65),
    ("MASS", &["kg", "kilogram", "kilograms", "kilogramme"], 1.0),
    ("MASS", &["gram", "grams", "g"], 1e-3),
    ("MASS", &["tonne", "tonnes", "metric_ton", "t"], 1e3),
    (
        "MASS",
        &["pound_mass", "pounds_mass", "lbm", "pound", "pounds", "lb"],
        0.453_592_37,
    ),
    ("MASS", &["slug", "slugs"], 14.593_902_94),
    ("TIME", &["second", "seconds", "sec", "s"], 1.0),
    ("TIME", &["millisecond", "milliseconds", "ms"], 1e-3),
    ("TIME", &["minute", "minutes", "min"], 60.0),
    ("TIME", &["hour", "hours", "h"], 3600.0),
    ("PRESSURE", &["pascal", "pascals", "pa"], 1.0),
    ("PRESSURE", &["kilopascal", "kilopascals", "kpa"], 1e3),
    ("PRESSURE", &["megapascal", "megapascals", "mpa"], 1e6),
    ("PRESSURE", &["bar"], 1e5),
    ("PRESSURE", &["psi"], 6_894.757_293_168),
    ("ANGLE", &["radian", "radians", "rad"], 1.0),
];

/// `key` in `list`, as the `'static` string of the list.
pub(super) fn find_key(list: &'static [&'static str], key: &str) -> Option<&'static str> {
    list.iter().copied().find(|k| *k == key)
}

/// The `'static` name of coefficient `key`.
pub(super) fn coefficient_key(key: &str) -> Option<&'static str> {
    MfCoefficients::KEYS
        .iter()
        .map(|(k, _, _)| *k)
        .find(|k| *k == key)
}
