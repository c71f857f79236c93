//! Units of TORCS parameter files, converted to SI as TORCS itself does (`GfParmUnit2SI` in
//! TORCS's `params.cpp`): a unit is a product of names joined by `.`, divided after a `/`, and
//! a `2` squares the name before it (`m/s2`). Known names: m, kg, s, rad, Pa (SI); feet/ft,
//! in/inch/inches, mm, cm, km (to m); deg (to rad); h/hour/hours, day/days (to s); lb/lbs,
//! slug/slugs (to kg); `kPa`, `MPa`, psi/PSI (to Pa); rpm/RPM (to rad/s); percent/% (divided by
//! 100); N and lbf (to N). TORCS ignores a name it does not know; here it is an error, so that
//! a misspelt unit does not silently scale a value. Two names of its car files that TORCS does
//! not know are accepted as TORCS reads them: `l` (litres of fuel, a number TORCS then uses as
//! kilograms; factor 1) and `ch` (metric horsepower, 735.49875 W; no simulation reads it).

/// Factor from one unit name to SI, `None` for an unknown name.
fn factor(name: &str) -> Option<f64> {
    Some(match name {
        // Car files: TORCS keeps the number of an unknown name, so a tank of 94 `l` is 94 kg
        // of fuel to its simulation (`simuv2/car.cpp`).
        "" | "m" | "kg" | "s" | "rad" | "Pa" | "N" | "l" => 1.0,
        // TORCS writes 0.304801; the international foot is exactly 0.3048 m.
        "feet" | "ft" => 0.3048,
        "deg" => std::f64::consts::PI / 180.0,
        "h" | "hour" | "hours" => 3600.0,
        "day" | "days" => 86_400.0,
        "km" | "kPa" => 1000.0,
        "mm" => 0.001,
        "cm" | "percent" | "%" => 0.01,
        "in" | "inch" | "inches" => 0.0254,
        "lbs" | "lb" => 0.453_592_37,
        "slug" | "slugs" => 14.593_902_9,
        "MPa" => 1.0e6,
        "PSI" | "psi" => 6894.757,
        "rpm" | "RPM" => std::f64::consts::PI / 30.0,
        "lbf" => 4.448_221_6,
        "ch" => 735.498_75,
        _ => return None,
    })
}

/// Converts `value` expressed in `unit` to SI.
///
/// # Errors
/// The unit name that is not known.
pub fn to_si(unit: &str, value: f64) -> Result<f64, String> {
    let mut result = value;
    let mut dividing = false;
    let mut name = String::new();
    let apply = |name: &str, dividing: bool, result: &mut f64| -> Result<(), String> {
        let f = factor(name).ok_or_else(|| format!("unknown unit '{name}' in '{unit}'"))?;
        if dividing {
            *result /= f;
        } else {
            *result *= f;
        }
        Ok(())
    };
    for c in unit.trim().chars() {
        match c {
            '.' => {
                apply(&name, dividing, &mut result)?;
                name.clear();
            }
            '/' => {
                apply(&name, dividing, &mut result)?;
                name.clear();
                dividing = true;
            }
            '2' => {
                apply(&name, dividing, &mut result)?;
                apply(&name, dividing, &mut result)?;
                name.clear();
            }
            _ => name.push(c),
        }
    }
    apply(&name, dividing, &mut result)?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::to_si;

    #[test]
    fn units_convert_as_torcs_documents() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
        assert!(close(to_si("ft", 100.0).unwrap(), 30.48));
        assert!(close(
            to_si("deg", 90.0).unwrap(),
            std::f64::consts::FRAC_PI_2
        ));
        assert!(close(to_si("km", 1.5).unwrap(), 1500.0));
        assert!(close(to_si("%", 3.0).unwrap(), 0.03));
        assert!(close(to_si("mm", 20.0).unwrap(), 0.02));
        assert!(close(to_si("hour", 1.0).unwrap(), 3600.0));
        assert!(close(to_si("m", 7.0).unwrap(), 7.0));
        assert!(close(to_si("", 7.0).unwrap(), 7.0));
        // 100 km/h = 27.78 m/s; 9.81 m/s2 stays.
        assert!(close(to_si("km/h", 100.0).unwrap(), 100_000.0 / 3600.0));
        assert!(close(to_si("m/s2", 9.81).unwrap(), 9.81));
        assert!(close(to_si("lbf.in", 1.0).unwrap(), 4.448_221_6 * 0.0254));
        // Car files: litres kept as TORCS keeps them, metric horsepower in watts.
        assert!(close(to_si("l", 94.0).unwrap(), 94.0));
        assert!(close(to_si("ch", 1.0).unwrap(), 735.498_75));
        let err = to_si("furlong", 1.0).unwrap_err();
        assert!(err.contains("unknown unit 'furlong'"), "{err}");
    }
}
