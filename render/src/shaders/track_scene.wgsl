// Imported scenes (TORCS .acc models): textured, lit by `lit` of scene.wgsl. Appended to
// common.wgsl and scene.wgsl. Group 2: the base texture, the second layer (white where the
// batch has none) and a repeating, mipmapped sampler.

@group(2) @binding(0) var base_texture: texture_2d<f32>;
@group(2) @binding(1) var tiled_texture: texture_2d<f32>;
@group(2) @binding(2) var texture_sampler: sampler;

// Alpha-tested foliage: fragments under half alpha are discarded (set per pipeline).
override ALPHA_TEST: bool = false;
// The textures are authored to be shown unlit (TORCS replaces the lit colour by the
// texture); under the sun and sky of this renderer they are scaled to the albedo of the
// procedural surfaces.
const ALBEDO_SCALE: f32 = 0.55;

struct TrackSceneIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) uv_tiled: vec2<f32>,
};

struct TrackSceneOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) uv_tiled: vec2<f32>,
};

@vertex
fn vs_track_scene(in: TrackSceneIn) -> TrackSceneOut {
    let world = model.world_from_model * vec4<f32>(in.position, 1.0);
    var out: TrackSceneOut;
    out.clip = globals.clip_from_world * world;
    out.world = world.xyz;
    out.normal = (model.world_from_model * vec4<f32>(in.normal, 0.0)).xyz;
    out.uv = in.uv;
    out.uv_tiled = in.uv_tiled;
    return out;
}

@fragment
fn fs_track_scene(in: TrackSceneOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let base = textureSample(base_texture, texture_sampler, in.uv);
    let tiled = textureSample(tiled_texture, texture_sampler, in.uv_tiled).rgb;
    if ALPHA_TEST && base.a < 0.5 {
        discard;
    }
    var s: Surface;
    s.albedo = base.rgb * tiled * ALBEDO_SCALE;
    s.specular = 0.03;
    s.shininess = 16.0;
    s.reflect = 0.0;
    return encode_output(lit(s, in.normal, front, in.world));
}
