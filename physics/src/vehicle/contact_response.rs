//! The body's response to walls and solid objects each tick: both kinds of contact are
//! gathered into one [`ContactSet`] (the law is [`super::contact_set`]'s) and added to the
//! body's loads.

use super::body_shape::BodyShape;
use super::chassis::{BodyLoads, RigidBody};
use super::contact_set::ContactSet;
use super::solid_contact::{SolidMemory, collect_solid_contacts};
use super::wall_contact::{WallMemory, collect_wall_contacts};
use crate::ground::Ground;

/// Adds the loads of `ground`'s walls and solids on the body to `loads` (one response for
/// all, see the module docs) and returns how many contacts each gave: `(walls, solids)`.
/// Ground with neither adds nothing. `contacts` is the caller's buffer, kept between ticks
/// (a fresh one each tick would cost clearing its 3.6 kB every tick, some 7 % of a step).
pub fn add_obstacle_loads(
    shape: &BodyShape<'_>,
    body: &RigidBody,
    ground: &impl Ground,
    (walls, solids, contacts): (&mut WallMemory, &mut SolidMemory, &mut ContactSet),
    dt: f64,
    loads: &mut BodyLoads,
) -> (usize, usize) {
    contacts.clear();
    let on_walls = ground.walls().map_or(0, |w| {
        collect_wall_contacts(shape, body, w, walls, contacts)
    });
    let on_solids = ground.solids().map_or(0, |s| {
        collect_solid_contacts(shape, body, s, solids, contacts)
    });
    if !contacts.is_empty() {
        let (force, torque) = contacts.loads(body, shape.mass, dt);
        loads.add(force, torque);
    }
    (on_walls, on_solids)
}
