//! CPU-side meshes: the vertex layout shared by every lit draw, material ids understood by
//! the scene shader, and a small builder for triangles, quads, boxes and cylinders.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};

/// Material ids: how the scene shader colours a fragment (see `shaders/scene.wgsl`).
pub mod material {
    /// Plain diffuse colour from the vertex.
    pub const MATTE: u32 = 0;
    /// Dry asphalt with grain and patches.
    pub const ASPHALT: u32 = 1;
    /// Wet asphalt: dark and reflective.
    pub const WET_ASPHALT: u32 = 2;
    /// Concrete slabs.
    pub const CONCRETE: u32 = 3;
    /// Kerb: red and white blocks along `uv.x` (distance along the road, m).
    pub const KERB: u32 = 4;
    /// Grass with mowing stripes.
    pub const GRASS: u32 = 5;
    /// Gravel: speckled.
    pub const GRAVEL: u32 = 6;
    /// Sand.
    pub const SAND: u32 = 7;
    /// Ice: pale blue and glossy.
    pub const ICE: u32 = 8;
    /// Road paint (edge lines, start line).
    pub const PAINT: u32 = 9;
    /// The far ground plane: grass fading to haze.
    pub const FAR_GROUND: u32 = 10;
    /// Car paint and glass: vertex colour with a clear-coat highlight.
    pub const GLOSSY: u32 = 11;
    /// Lamps: vertex colour, unlit.
    pub const EMISSIVE: u32 = 12;
}

/// One vertex of a lit mesh: 48 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Vertex {
    /// Position in the mesh's frame (m).
    pub position: [f32; 3],
    /// Unit normal in the mesh's frame.
    pub normal: [f32; 3],
    /// Linear RGB colour 0..1.
    pub color: [f32; 3],
    /// Material parameters: for kerbs, distance along the road and across it (m).
    pub uv: [f32; 2],
    /// A [`material`] id.
    pub material: u32,
}

impl Vertex {
    /// The wgpu vertex buffer layout of [`Vertex`].
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x3, 2 => Float32x3, 3 => Float32x2, 4 => Uint32
    ];

    /// The layout to give a pipeline.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Vertex>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRIBUTES,
        }
    }
}

/// A list of triangles (three vertices each, no index buffer: every triangle has its own
/// flat normal and material).
#[derive(Clone, Debug, Default)]
pub struct MeshBuilder {
    /// The vertices so far.
    pub vertices: Vec<Vertex>,
    /// Transform applied to everything pushed from now on.
    transform: Option<Mat4>,
}

impl MeshBuilder {
    /// An empty mesh.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the transform applied to positions and normals pushed from now on (`None` for
    /// none). Must be a rotation, translation and uniform scale.
    pub fn set_transform(&mut self, transform: Option<Mat4>) {
        self.transform = transform;
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.vertices.len() / 3
    }

    /// One triangle with its own flat normal (from the winding, counter-clockwise front);
    /// `uv` per corner.
    pub fn triangle_uv(&mut self, p: [Vec3; 3], uv: [[f32; 2]; 3], color: [f32; 3], material: u32) {
        let p = match self.transform {
            Some(m) => p.map(|v| m.transform_point3(v)),
            None => p,
        };
        let normal = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or(Vec3::Z);
        for (pos, uv) in p.into_iter().zip(uv) {
            self.vertices.push(Vertex {
                position: pos.to_array(),
                normal: normal.to_array(),
                color,
                uv,
                material,
            });
        }
    }

    /// One triangle, `uv` zero.
    pub fn triangle(&mut self, p: [Vec3; 3], color: [f32; 3], material: u32) {
        self.triangle_uv(p, [[0.0; 2]; 3], color, material);
    }

    /// A quad `a b c d` (counter-clockwise seen from the front) as two triangles.
    pub fn quad(&mut self, q: [Vec3; 4], color: [f32; 3], material: u32) {
        self.triangle([q[0], q[1], q[2]], color, material);
        self.triangle([q[0], q[2], q[3]], color, material);
    }

    /// A quad with a uv per corner.
    pub fn quad_uv(&mut self, q: [Vec3; 4], uv: [[f32; 2]; 4], color: [f32; 3], material: u32) {
        self.triangle_uv([q[0], q[1], q[2]], [uv[0], uv[1], uv[2]], color, material);
        self.triangle_uv([q[0], q[2], q[3]], [uv[0], uv[2], uv[3]], color, material);
    }

    /// A hexahedron from its eight corners: `bottom` and `top` each counter-clockwise seen
    /// from above, starting at the same (rear-right) corner. Faces point outwards.
    pub fn hexahedron(
        &mut self,
        bottom: [Vec3; 4],
        top: [Vec3; 4],
        color: [f32; 3],
        material: u32,
    ) {
        self.quad([top[0], top[1], top[2], top[3]], color, material);
        self.quad(
            [bottom[3], bottom[2], bottom[1], bottom[0]],
            color,
            material,
        );
        for i in 0..4 {
            let j = (i + 1) % 4;
            self.quad([bottom[i], bottom[j], top[j], top[i]], color, material);
        }
    }

    /// An axis-aligned box between two opposite corners (in any order).
    pub fn cuboid(&mut self, a: Vec3, b: Vec3, color: [f32; 3], material: u32) {
        let (min, max) = (a.min(b), a.max(b));
        let b = [
            Vec3::new(min.x, min.y, min.z),
            Vec3::new(max.x, min.y, min.z),
            Vec3::new(max.x, max.y, min.z),
            Vec3::new(min.x, max.y, min.z),
        ];
        let t = b.map(|v| Vec3::new(v.x, v.y, max.z));
        self.hexahedron(b, t, color, material);
    }

    /// A cylinder about the y axis from `y0` to `y1` (y0 < y1), `segments` sides, with the
    /// end caps when asked.
    #[allow(clippy::too_many_arguments)]
    pub fn cylinder_y(
        &mut self,
        radius: f32,
        y0: f32,
        y1: f32,
        segments: u32,
        side_color: [f32; 3],
        cap_color: Option<[f32; 3]>,
        material: u32,
    ) {
        let segments = segments.max(3);
        let point = |k: u32, y: f32| {
            let a = std::f32::consts::TAU * k as f32 / segments as f32;
            Vec3::new(radius * a.cos(), y, radius * a.sin())
        };
        for k in 0..segments {
            let (a0, a1) = (point(k, y0), point(k + 1, y0));
            let (b0, b1) = (point(k, y1), point(k + 1, y1));
            // Counter-clockwise seen from outside.
            self.quad([a0, b0, b1, a1], side_color, material);
            if let Some(cap) = cap_color {
                self.triangle([Vec3::new(0.0, y1, 0.0), b1, b0], cap, material);
                self.triangle([Vec3::new(0.0, y0, 0.0), a0, a1], cap, material);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_have_outward_normals() {
        let mut m = MeshBuilder::new();
        m.cuboid(
            Vec3::splat(-1.0),
            Vec3::splat(1.0),
            [1.0; 3],
            material::MATTE,
        );
        assert_eq!(m.triangle_count(), 12);
        for tri in m.vertices.chunks(3) {
            let centre = tri
                .iter()
                .fold(Vec3::ZERO, |s, v| s + Vec3::from(v.position))
                / 3.0;
            assert!(Vec3::from(tri[0].normal).dot(centre) > 0.0);
        }
    }

    #[test]
    fn cylinders_have_outward_normals() {
        let mut m = MeshBuilder::new();
        m.cylinder_y(
            0.3,
            -0.1,
            0.1,
            12,
            [0.1; 3],
            Some([0.5; 3]),
            material::MATTE,
        );
        for tri in m.vertices.chunks(3) {
            let centre = tri
                .iter()
                .fold(Vec3::ZERO, |s, v| s + Vec3::from(v.position))
                / 3.0;
            assert!(Vec3::from(tri[0].normal).dot(centre) > 0.0);
        }
    }
}
