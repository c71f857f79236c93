//! A static mesh on the GPU: one vertex buffer of [`MeshBuilder`] vertices, drawn whole or
//! by vertex ranges (the visible tiles).

use wgpu::util::DeviceExt;

use crate::mesh::MeshBuilder;

/// A vertex buffer and its vertex count.
pub(crate) struct GpuMesh {
    buffer: wgpu::Buffer,
    count: u32,
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
        Some(Self { buffer, count })
    }

    /// Draws every vertex.
    pub(crate) fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_vertex_buffer(0, self.buffer.slice(..));
        pass.draw(0..self.count, 0..1);
    }

    /// Draws the vertex ranges `ranges` only (the visible tiles).
    pub(crate) fn draw_ranges(&self, pass: &mut wgpu::RenderPass<'_>, ranges: &[(u32, u32)]) {
        pass.set_vertex_buffer(0, self.buffer.slice(..));
        for &(first, end) in ranges {
            pass.draw(first.min(self.count)..end.min(self.count), 0..1);
        }
    }
}
