//! A static mesh on the GPU: one vertex buffer of [`MeshBuilder`] vertices, drawn whole or
//! by vertex ranges (the visible tiles), in draws of at most a batch of vertices (see
//! [`crate::RenderSettings::draw_batch_vertices`]).

use wgpu::util::DeviceExt;

use crate::mesh::MeshBuilder;

/// A vertex buffer, its vertex count and the most vertices one draw takes.
pub(crate) struct GpuMesh {
    buffer: wgpu::Buffer,
    count: u32,
    batch: u32,
}

impl GpuMesh {
    /// The mesh uploaded, `None` when it is empty (nothing to draw).
    pub(crate) fn new(device: &wgpu::Device, label: &str, mesh: &MeshBuilder) -> Option<Self> {
        if mesh.vertices.is_empty() {
            return None;
        }
        let count = u32::try_from(mesh.vertices.len()).ok()?;
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(&mesh.vertices),
            usage: wgpu::BufferUsages::VERTEX,
        });
        Some(Self {
            buffer,
            count,
            batch: u32::MAX,
        })
    }

    /// The same mesh drawn in draws of at most `vertices` vertices (see [`triangle_batches`]).
    pub(crate) fn with_draw_batch(mut self, vertices: u32) -> Self {
        self.batch = vertices;
        self
    }

    /// Draws every vertex.
    pub(crate) fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        self.draw_ranges(pass, &[(0, self.count)]);
    }

    /// Draws the vertex ranges `ranges` only (the visible tiles).
    pub(crate) fn draw_ranges(&self, pass: &mut wgpu::RenderPass<'_>, ranges: &[(u32, u32)]) {
        pass.set_vertex_buffer(0, self.buffer.slice(..));
        for &(first, end) in ranges {
            for batch in triangle_batches(first.min(self.count)..end.min(self.count), self.batch) {
                pass.draw(batch, 0..1);
            }
        }
    }
}

/// `range` (vertices or indices of a triangle list) cut into consecutive pieces of at most
/// `batch` elements, rounded down to whole triangles (at least one).
pub(crate) fn triangle_batches(
    range: std::ops::Range<u32>,
    batch: u32,
) -> impl Iterator<Item = std::ops::Range<u32>> {
    let batch = (batch / 3).max(1).saturating_mul(3);
    range
        .clone()
        .step_by(batch as usize)
        .map(move |start| start..range.end.min(start.saturating_add(batch)))
}

#[cfg(test)]
mod tests {
    use super::triangle_batches;

    #[test]
    fn ranges_are_cut_into_whole_triangles_covering_every_element_once() {
        let cut: Vec<_> = triangle_batches(3..21, 7).collect();
        assert_eq!(
            cut,
            vec![3..9, 9..15, 15..21],
            "7 rounds down to 2 triangles"
        );
        assert_eq!(
            triangle_batches(0..6, u32::MAX).collect::<Vec<_>>(),
            vec![0..6]
        );
        assert_eq!(triangle_batches(6..6, 3).count(), 0);
        assert_eq!(
            triangle_batches(0..6, 0).collect::<Vec<_>>(),
            vec![0..3, 3..6],
            "at least one triangle a draw"
        );
    }
}
