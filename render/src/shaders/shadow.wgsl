// Depth-only pass from the sun into the shadow map.

@group(1) @binding(0) var<uniform> model: Model;

@vertex
fn vs_shadow(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {
    let world = model.world_from_model * vec4<f32>(position, 1.0);
    return globals.light_clip_from_world * world;
}
