//! The world a car drives in (a headless run or the real-time simulator): a loaded track, or an
//! endless flat plane.

use anyhow::{Context, Result, bail};
use glam::{DVec2, DVec3};
use gripline_formats::track_file::LoadedTrack;
use gripline_physics::ground::{FlatGround, Ground, GroundHit, RayHint, SoleFace, Solids, Walls};
use gripline_physics::track::ReferenceGeometry;
use gripline_torcs::track::load::{load_any_track, resolve_any_track};

use crate::replay::identity::FileIdentity;

/// Name of the built-in endless flat asphalt plane.
pub const FLAT: &str = "flat";

/// Where the car drives.
#[derive(Clone)]
pub enum World {
    /// An endless flat asphalt plane at z = 0.
    Flat(FlatGround),
    /// A track with its mesh, centre line and references.
    Track(Box<LoadedTrack>),
}

impl World {
    /// Loads the track `name` (`flat`, a name in `assets/tracks/`, or a path).
    ///
    /// # Errors
    /// The track file's problems, each naming the file.
    pub fn load(name: &str) -> Result<Self> {
        if name == FLAT {
            return Ok(World::Flat(FlatGround::default()));
        }
        let path = resolve_any_track(name)?;
        Ok(World::Track(Box::new(load_any_track(&path)?)))
    }

    /// Display name.
    pub fn name(&self) -> &str {
        match self {
            World::Flat(_) => FLAT,
            World::Track(t) => &t.name,
        }
    }

    /// The loaded track, if this is one.
    pub fn track(&self) -> Option<&LoadedTrack> {
        match self {
            World::Flat(_) => None,
            World::Track(t) => Some(t),
        }
    }

    /// The identity of this world for replays, loaded as `spec`: the track with a hash of
    /// the bytes of its files (an imported TORCS track's `surfaces.xml` too), or the
    /// built-in flat plane.
    ///
    /// # Errors
    /// The track file can no longer be read.
    pub fn identity(&self, spec: &str) -> Result<FileIdentity> {
        match self {
            World::Flat(_) => Ok(FileIdentity::builtin(FLAT, FLAT)),
            World::Track(t) => FileIdentity::of_files(spec, &t.name, &t.files),
        }
    }

    /// A reference of the track by name.
    ///
    /// # Errors
    /// When the world has no such reference.
    pub fn reference(&self, name: &str) -> Result<&ReferenceGeometry> {
        let track = self
            .track()
            .with_context(|| format!("the flat world has no reference '{name}'"))?;
        track
            .mesh
            .reference(name)
            .map(|r| &r.geometry)
            .with_context(|| format!("track '{}' has no reference '{name}'", track.name))
    }

    /// The ground point and normal below `xy` (searching from 50 m above to 100 m below).
    ///
    /// # Errors
    /// When there is no ground there.
    pub fn ground_at(&self, xy: DVec2) -> Result<(DVec3, DVec3)> {
        let origin = DVec3::new(xy.x, xy.y, 50.0);
        match self.ray_cast(origin, -DVec3::Z, 150.0) {
            Some(hit) => Ok((hit.point, hit.normal)),
            None => bail!("no ground at ({:.1}, {:.1})", xy.x, xy.y),
        }
    }

    /// Where a straight-line test starts and which way it runs: the track's `launch` station
    /// on its centre line, or the origin heading +x on the flat plane.
    ///
    /// # Errors
    /// A track without a `launch` station and without a centre line.
    pub fn straight_start(&self) -> Result<(DVec2, f64)> {
        let Some(track) = self.track() else {
            return Ok((DVec2::ZERO, 0.0));
        };
        let distance = match track.mesh.reference("launch").map(|r| &r.geometry) {
            Some(ReferenceGeometry::Station { distance_m, .. }) => *distance_m,
            _ => 0.0,
        };
        let sample = track
            .mesh
            .centre_line
            .sample_at(distance)
            .with_context(|| format!("track '{}' has no centre line", track.name))?;
        let heading = sample.tangent.y.atan2(sample.tangent.x);
        Ok((sample.position.truncate(), heading))
    }
}

impl Ground for World {
    #[inline]
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        match self {
            World::Flat(g) => g.ray_cast(origin, direction, max_distance),
            World::Track(t) => t.mesh.ray_cast(origin, direction, max_distance),
        }
    }

    #[inline]
    fn ray_cast_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        match self {
            World::Flat(g) => g.ray_cast(origin, direction, max_distance),
            World::Track(t) => t
                .mesh
                .ray_cast_hinted(origin, direction, max_distance, hint),
        }
    }

    #[inline]
    fn ray_cast_face_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        match self {
            World::Flat(g) => g.ray_cast(origin, direction, max_distance),
            World::Track(t) => t
                .mesh
                .ray_cast_face_hinted(origin, direction, max_distance, hint),
        }
    }

    #[inline]
    fn sole_face(&self, hint: RayHint) -> Option<SoleFace> {
        match self {
            World::Flat(_) => None,
            World::Track(t) => t.mesh.sole_face(hint),
        }
    }

    #[inline]
    fn walls(&self) -> Option<&Walls> {
        match self {
            World::Flat(_) => None,
            World::Track(t) => t.mesh.walls(),
        }
    }

    #[inline]
    fn solids(&self) -> Option<&Solids> {
        match self {
            World::Flat(_) => None,
            World::Track(t) => t.mesh.solids(),
        }
    }
}
