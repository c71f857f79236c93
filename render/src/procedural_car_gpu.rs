//! The procedural car on the GPU: the body, tail lamps, wheels and cockpit built from a
//! [`VehicleVisual`] ([`crate::car_mesh`]). The scene draws the body and wheels unless a car
//! model stands in for them; the cockpit and the shadow are always these.

use crate::car_mesh;
use crate::gpu_mesh::GpuMesh;
use crate::vehicle_visual::VehicleVisual;

/// The meshes of one car's procedural body (each `None` when it has no triangles).
pub(crate) struct ProceduralCar {
    /// The body.
    pub(crate) body: Option<GpuMesh>,
    /// The tail lamps: running lights, and lit as brake lamps.
    pub(crate) tail_lamps: [Option<GpuMesh>; 2],
    /// A wheel of each axle.
    pub(crate) wheels: [Option<GpuMesh>; 2],
    /// The cockpit, around the driver's eye point.
    pub(crate) cockpit: Option<GpuMesh>,
}

impl ProceduralCar {
    /// Uploads the meshes of `visual`.
    pub(crate) fn new(device: &wgpu::Device, visual: &VehicleVisual) -> Self {
        Self {
            body: GpuMesh::new(device, "car body", &car_mesh::body_mesh(visual)),
            tail_lamps: [false, true].map(|braking| {
                GpuMesh::new(
                    device,
                    "tail lamps",
                    &car_mesh::tail_lamps_mesh(visual, braking),
                )
            }),
            wheels: [0, 1].map(|axle| {
                GpuMesh::new(
                    device,
                    "wheel",
                    &car_mesh::wheel_mesh(visual.wheel_radius_m[axle], visual.tyre_width_m[axle]),
                )
            }),
            cockpit: GpuMesh::new(device, "cockpit", &car_mesh::cockpit_mesh(visual)),
        }
    }
}
