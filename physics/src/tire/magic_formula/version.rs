//! [`MfVersion`]: which Magic Formula equations a coefficient set is for.

/// Which Magic Formula equations a coefficient set is for, from the file's `FITTYP`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MfVersion {
    /// MF 5.2 (FITTYP 6 or 21): no pressure terms.
    Mf52,
    /// MF 6.1 (FITTYP 61).
    Mf61,
    /// MF 6.2 (FITTYP 62): MF 6.1 equations for steady-state forces and moments.
    Mf62,
}

impl MfVersion {
    /// The version of a `.tir` `FITTYP` value, as `MFeval` reads it (6 and 21 are MF 5.2).
    pub fn from_fittyp(fittyp: i64) -> Option<Self> {
        match fittyp {
            6 | 21 => Some(Self::Mf52),
            61 => Some(Self::Mf61),
            62 => Some(Self::Mf62),
            _ => None,
        }
    }

    /// The canonical `FITTYP` of this version (6 for MF 5.2).
    pub fn fittyp(self) -> i64 {
        match self {
            Self::Mf52 => 6,
            Self::Mf61 => 61,
            Self::Mf62 => 62,
        }
    }

    /// Whether the equations have inflation-pressure terms (MF 6.1 and 6.2).
    pub fn has_pressure(self) -> bool {
        !matches!(self, Self::Mf52)
    }
}
