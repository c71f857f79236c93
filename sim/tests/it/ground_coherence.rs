//! The ground queries' temporal coherence changes nothing: on every tick of a lap of the
//! shipped circuit, each hinted query (four wheels, twelve body probes) returns exactly what
//! the full BVH query returns, and most of them hit the very triangle of last tick.

use crate::support::lap as lap_support;

use std::cell::Cell;

use glam::DVec3;
use gripline_physics::ground::{Ground, GroundHit, RayHint};
use gripline_sim::session::Session;
use gripline_sim::world::World;
use lap_support::for_each_tick_of_a_lap;

/// The world, answering every hinted query both ways and comparing.
struct Checked<'w> {
    world: &'w World,
    queries: Cell<u64>,
    mismatches: Cell<u64>,
    remembered: Cell<u64>,
}

impl Ground for Checked<'_> {
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        self.world.ray_cast(origin, direction, max_distance)
    }

    fn ray_cast_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        let before = *hint;
        let hinted = self
            .world
            .ray_cast_hinted(origin, direction, max_distance, hint);
        let full = self.world.ray_cast(origin, direction, max_distance);
        self.queries.set(self.queries.get() + 1);
        if before.triangle().is_some() && before == *hint {
            self.remembered.set(self.remembered.get() + 1);
        }
        if hinted != full {
            self.mismatches.set(self.mismatches.get() + 1);
        }
        full
    }
}

#[test]
fn hinted_ground_queries_equal_the_bvh_on_every_tick_of_a_lap() {
    let mut session = Session::load("corvette-c5", "circuit").expect("shipped car and track");
    let world = session.world().clone();
    let checked = Checked {
        world: &world,
        queries: Cell::new(0),
        mismatches: Cell::new(0),
        remembered: Cell::new(0),
    };
    let ticks = for_each_tick_of_a_lap(&mut session, |session, controls, dt, _| {
        session
            .vehicle_mut_unrecorded()
            .step(controls, &checked, dt);
    });
    let (queries, mismatches, remembered) = (
        checked.queries.get(),
        checked.mismatches.get(),
        checked.remembered.get(),
    );
    eprintln!(
        "{ticks} ticks, {queries} hinted queries, {mismatches} mismatches, {remembered} on last tick's triangle"
    );
    assert!(queries >= 4 * ticks, "every wheel queries every tick");
    assert_eq!(mismatches, 0);
    // Most queries hit the very triangle of last tick (the rest mostly its neighbours).
    assert!(
        remembered * 2 > queries,
        "coherence should hold for most queries: {remembered} of {queries}"
    );
}
