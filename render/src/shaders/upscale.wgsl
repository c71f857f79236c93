// Upscaling: the scene rendered at a lower internal resolution, stretched over the target
// with bilinear filtering (a fullscreen triangle; texel values are copied as stored).

@group(0) @binding(0) var scene_colour: texture_2d<f32>;
@group(0) @binding(1) var scene_sampler: sampler;

struct UpscaleOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_upscale(@builtin(vertex_index) index: u32) -> UpscaleOut {
    let x = f32((index << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(index & 2u) * 2.0 - 1.0;
    var out: UpscaleOut;
    out.clip = vec4<f32>(x, y, 0.0, 1.0);
    out.uv = vec2<f32>(0.5 * x + 0.5, 0.5 - 0.5 * y);
    return out;
}

@fragment
fn fs_upscale(in: UpscaleOut) -> @location(0) vec4<f32> {
    return textureSampleLevel(scene_colour, scene_sampler, in.uv, 0.0);
}
