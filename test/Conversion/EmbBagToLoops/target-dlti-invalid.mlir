// RUN: embbag-opt %s --split-input-file --verify-diagnostics --convert-embbag-to-loops="target=avx2"

// A DLTI entry the target model reads must have its type and range: an error
// at the op holding the spec, before anything is rewritten.

// expected-error @below {{'L2_cache_size_in_bytes' of device "CPU" in dlti.target_system_spec must be a positive integer, not "2MiB"}}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L2_cache_size_in_bytes" = "2MiB">>} {
  func.func @f(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
}

// -----

// expected-error @below {{'L3_cache_size_in_bytes' of device "CPU" in dlti.target_system_spec must be a positive integer, not 0 : i64}}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 0 : i64>>} {
  func.func @f(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
}

// -----

// expected-error @below {{'max_vector_op_width' of device "CPU" in dlti.target_system_spec must be a power of two from 64 to 2048, not 384 : i64}}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"max_vector_op_width" = 384 : i64>>} {
  func.func @f(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
}

// -----

// expected-error @below {{'has_mask_registers' of device "CPU" in dlti.target_system_spec must be true or false, not 1 : i64}}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"has_mask_registers" = 1 : i64>>} {
  func.func @f(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
}

// -----

// expected-error @below {{'vector_register_count' of device "CPU" in dlti.target_system_spec must be an integer >= 4, not true}}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"vector_register_count" = true>>} {
  func.func @f(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
    %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
}
