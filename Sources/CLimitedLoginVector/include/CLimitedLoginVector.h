#ifndef C_LIMITED_LOGIN_VECTOR_H
#define C_LIMITED_LOGIN_VECTOR_H

#include <stddef.h>
#include <stdint.h>

/// Decodes the longest prefix of `input` made of whole 16-character blocks that are all base64url
/// (`A-Z a-z 0-9 - _`), with vector instructions, and returns how many characters it consumed (a multiple
/// of 16; 0 when the CPU has no suitable instructions or the first block holds any other byte).
///
/// Each block of 16 characters becomes 12 bytes at `output + consumed / 4 * 3`. A block is decoded only
/// while `output` has room for a 16-byte store after it (`output_capacity`), so nothing past the capacity
/// is written. The caller decodes the rest, reports errors, and applies the rules of the last quad.
size_t ll_base64url_decode_blocks(const uint8_t *input, size_t input_count, uint8_t *output, size_t output_capacity);

/// Which implementation `ll_base64url_decode_blocks` uses on this CPU: 0 none (the caller decodes
/// everything), 1 SSSE3 (16 characters a step), 2 AVX2 (32 characters a step).
int ll_base64url_vector_level(void);

/// `ll_base64url_decode_blocks` with the implementation of `level` (at most the CPU's own), so that tests
/// can hold each implementation to the scalar decoder.
size_t ll_base64url_decode_blocks_at_level(int level, const uint8_t *input, size_t input_count, uint8_t *output,
                                           size_t output_capacity);

#endif
