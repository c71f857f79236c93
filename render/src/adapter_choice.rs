//! [`AdapterChoice`]: which adapter to ask for, from `GRIPLINE_ADAPTER` (`software` or
//! `fallback` for a software adapter such as Mesa's lavapipe, `low-power`, or the default
//! high-performance hardware adapter with a software fallback).

/// Which adapter to ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AdapterChoice {
    /// A hardware adapter, high performance preferred; a software one if none is found.
    #[default]
    Auto,
    /// A low-power hardware adapter (integrated GPU), then a software one.
    LowPower,
    /// Only a software adapter (lavapipe, WARP): reproducible pictures for tests.
    Software,
}

impl AdapterChoice {
    /// Reads `GRIPLINE_ADAPTER` (`software`/`fallback`, `low-power`, `high-performance`);
    /// [`AdapterChoice::Auto`] when unset or unknown.
    pub fn from_env() -> Self {
        std::env::var("GRIPLINE_ADAPTER")
            .map(|v| Self::parse(&v))
            .unwrap_or_default()
    }

    /// Parses a name as `GRIPLINE_ADAPTER` takes it; unknown names give `Auto`.
    pub fn parse(name: &str) -> Self {
        match name.trim().to_ascii_lowercase().as_str() {
            "software" | "fallback" | "cpu" | "lavapipe" => Self::Software,
            "low-power" | "lowpower" | "integrated" => Self::LowPower,
            _ => Self::Auto,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adapter_names_parse() {
        assert_eq!(AdapterChoice::parse("software"), AdapterChoice::Software);
        assert_eq!(AdapterChoice::parse(" Fallback "), AdapterChoice::Software);
        assert_eq!(AdapterChoice::parse("low-power"), AdapterChoice::LowPower);
        assert_eq!(
            AdapterChoice::parse("high-performance"),
            AdapterChoice::Auto
        );
        assert_eq!(AdapterChoice::parse(""), AdapterChoice::Auto);
    }
}
