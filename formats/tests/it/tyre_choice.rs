//! Tyres chosen per axle in a set-up: which shipped tyres fit which car (by the sizes and
//! loads their files state), and a set-up's tyres loaded in place of the car's, or refused
//! with a message.

use std::path::{Path, PathBuf};

use gripline_formats::setup_file::parse_setup;
use gripline_formats::tyre_catalog::tyre_options;
use gripline_formats::vehicle_file::{LoadedVehicle, load_vehicle};
use gripline_physics::vehicle::CarSetup;

fn car(name: &str) -> LoadedVehicle {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../assets/vehicles/{name}.ron"));
    load_vehicle(&path).expect("a shipped car")
}

#[test]
fn every_shipped_tyre_is_offered_and_fits_by_the_size_its_file_states() {
    let c5 = car("corvette-c5");
    let (options, unreadable) = tyre_options(&c5);
    assert!(unreadable.is_empty(), "{unreadable:?}");
    for o in &options {
        eprintln!(
            "{:<32} {:<20} front {:?} rear {:?}",
            o.name, o.family, o.fit[0], o.fit[1]
        );
    }
    let shipped = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/tyres"))
        .expect("shipped tyres")
        .count();
    assert_eq!(options.len(), shipped, "one option per shipped tyre file");
    let fit = |name: &str, axle: usize| {
        options
            .iter()
            .find(|o| o.name == name)
            .unwrap_or_else(|| panic!("{name} offered"))
            .fit[axle]
            .clone()
    };
    // The car's own tyres fit it.
    assert_eq!(fit("corvette-c5-front", 0), Ok(()));
    assert_eq!(fit("corvette-c5-rear", 1), Ok(()));
    // The TNO 205/60R15 (free radius 313.5 mm): 0.5 % from the C5's 315 mm front wheel.
    assert_eq!(fit("TNO_car205_60R15", 0), Ok(()));
    // The MF 6.1 example tyre (394.3 mm) is 25 % larger than the C5's front wheel.
    let why = fit("MagicFormula61_Parameters", 0).unwrap_err();
    assert!(why.contains("radius 394 mm is +25 %"), "{why}");
    // A brush model states no size and scales with load: it fits every axle.
    assert_eq!(fit("brush-205-55r16", 0), Ok(()));
    assert_eq!(fit("brush-205-55r16", 1), Ok(()));
    // Families come sorted together.
    let families: Vec<&str> = options.iter().map(|o| o.family).collect();
    let mut sorted = families.clone();
    sorted.sort_unstable();
    assert_eq!(families, sorted);
}

#[test]
fn a_set_up_fits_the_tyres_it_names_per_axle() {
    let c5 = car("corvette-c5");
    let mut setup = CarSetup::of(&c5.params);
    "TNO_car205_60R15".clone_into(&mut setup.front_tyre);
    "brush-205-55r16".clone_into(&mut setup.rear_tyre);
    let (fitted, messages) = c5.with_setup(&setup);
    assert!(messages.is_empty(), "{messages:?}");
    // The TNO file's FNOMIN is 4000 N; the C5's own front tyre's 4800 N.
    assert_eq!(fitted.tires[0].nominal_load(), Some(4000.0));
    assert_eq!(fitted.tires[1].family(), "brush");
    assert!(
        fitted.files[1].ends_with("TNO_car205_60R15.tir"),
        "{:?}",
        fitted.files
    );
    assert!(
        fitted.files[2].ends_with("brush-205-55r16.ron"),
        "{:?}",
        fitted.files
    );
    assert_eq!(fitted.params.front_tyre, "TNO_car205_60R15");
    fitted.build().expect("builds");
}

#[test]
fn tyres_that_do_not_fit_or_do_not_exist_keep_the_cars_with_a_message() {
    let c5 = car("corvette-c5");
    let mut setup = CarSetup::of(&c5.params);
    "MagicFormula61_Parameters".clone_into(&mut setup.front_tyre);
    "no-such-tyre".clone_into(&mut setup.rear_tyre);
    let (kept, messages) = c5.with_setup(&setup);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].starts_with("front_tyre: 'MagicFormula61_Parameters' does not fit"),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with("rear_tyre: 'no-such-tyre' cannot be loaded"),
        "{messages:?}"
    );
    assert_eq!(kept.params.front_tyre, c5.params.front_tyre);
    assert_eq!(kept.params.rear_tyre, c5.params.rear_tyre);
    assert_eq!(kept.files, c5.files);
    assert_eq!(kept.tires[0].nominal_load(), Some(4800.0));
}

#[test]
fn a_set_up_file_names_tyres_and_leaves_out_what_it_does_not_change() {
    let c5 = car("corvette-c5");
    let loaded = parse_setup(
        r#"(front_tyre: "TNO_car205_60R15")"#,
        Path::new("grip.ron"),
        &c5.params,
    )
    .expect("a set-up");
    assert_eq!(loaded.setup.front_tyre, "TNO_car205_60R15");
    assert_eq!(loaded.setup.rear_tyre, "corvette-c5-rear");
    assert!(loaded.messages.is_empty(), "{:?}", loaded.messages);
}
