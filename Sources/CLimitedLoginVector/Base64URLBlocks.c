// Vector decoding of whole base64url blocks. Only valid blocks are decoded here; the first block holding
// any other byte stops the loop, and the Swift caller finds and reports that byte itself. So this file
// decides no error and no edge case: its output for a block must equal the scalar decoder's, which the
// tests check for every byte value at every position.

#include "CLimitedLoginVector.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// Validity without branches per byte (after Wojciech Muła's base64 work): every byte's high nibble selects
// one class bit (lut_hi), its low nibble the set of classes in which that low nibble is NOT valid (lut_lo);
// the byte is base64url exactly when the two share no bit. Classes:
//   bit 0: high nibble 0, 1 or 8-F: nothing valid
//   bit 1: 0x2_: only 0x2D '-'
//   bit 2: 0x3_: 0x30-0x39 '0'-'9'
//   bit 3: 0x4_ and 0x6_: 0x41-0x4F 'A'-'O', 0x61-0x6F 'a'-'o' (low nibble 0 is '@' and '`')
//   bit 4: 0x5_: 0x50-0x5A 'P'-'Z' and 0x5F '_'
//   bit 5: 0x7_: 0x70-0x7A 'p'-'z'
#define LL_LUT_HI 1, 1, 2, 4, 8, 16, 8, 32, 1, 1, 1, 1, 1, 1, 1, 1
#define LL_LUT_LO \
    (1 | 2 | 8), (1 | 2), (1 | 2), (1 | 2), (1 | 2), (1 | 2), (1 | 2), (1 | 2), \
    (1 | 2), (1 | 2), (1 | 2 | 4), (1 | 2 | 4 | 16 | 32), (1 | 2 | 4 | 16 | 32), \
    (1 | 4 | 16 | 32), (1 | 2 | 4 | 16 | 32), (1 | 2 | 4 | 32)
// What to add to a valid byte, by high nibble, to get its six bits ('_' is corrected separately: it
// shares 0x5_ with 'P'-'Z', whose offset is -65, and needs -32).
#define LL_OFFSETS 0, 0, 17, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0
// From each 32-bit lane holding 24 bits (first character highest), the three bytes in stream order.
#define LL_PACK 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1

__attribute__((target("ssse3")))
static size_t decode_ssse3(const uint8_t *input, size_t count, uint8_t *output, size_t capacity) {
    const __m128i lut_hi = _mm_setr_epi8(LL_LUT_HI);
    const __m128i lut_lo = _mm_setr_epi8(LL_LUT_LO);
    const __m128i offsets = _mm_setr_epi8(LL_OFFSETS);
    const __m128i pack = _mm_setr_epi8(LL_PACK);
    const __m128i nibble = _mm_set1_epi8(0x0F);
    const __m128i underscore = _mm_set1_epi8(0x5F);
    const __m128i underscore_fix = _mm_set1_epi8(33);
    const __m128i pairs = _mm_set1_epi32(0x01400140);
    const __m128i quads = _mm_set1_epi32(0x00011000);
    size_t read = 0, written = 0;
    while (read + 16 <= count && written + 16 <= capacity) {
        const __m128i text = _mm_loadu_si128((const __m128i *)(input + read));
        const __m128i high = _mm_and_si128(_mm_srli_epi32(text, 4), nibble);
        const __m128i low = _mm_and_si128(text, nibble);
        const __m128i invalid = _mm_and_si128(_mm_shuffle_epi8(lut_lo, low), _mm_shuffle_epi8(lut_hi, high));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(invalid, _mm_setzero_si128())) != 0xFFFF) break;
        __m128i offset = _mm_shuffle_epi8(offsets, high);
        offset = _mm_add_epi8(offset, _mm_and_si128(_mm_cmpeq_epi8(text, underscore), underscore_fix));
        const __m128i sixes = _mm_add_epi8(text, offset);
        const __m128i twelves = _mm_maddubs_epi16(sixes, pairs);
        const __m128i lanes = _mm_madd_epi16(twelves, quads);
        _mm_storeu_si128((__m128i *)(output + written), _mm_shuffle_epi8(lanes, pack));
        read += 16;
        written += 12;
    }
    return read;
}

__attribute__((target("avx2")))
static size_t decode_avx2(const uint8_t *input, size_t count, uint8_t *output, size_t capacity) {
    const __m256i lut_hi = _mm256_setr_epi8(LL_LUT_HI, LL_LUT_HI);
    const __m256i lut_lo = _mm256_setr_epi8(LL_LUT_LO, LL_LUT_LO);
    const __m256i offsets = _mm256_setr_epi8(LL_OFFSETS, LL_OFFSETS);
    const __m256i pack = _mm256_setr_epi8(LL_PACK, LL_PACK);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i underscore = _mm256_set1_epi8(0x5F);
    const __m256i underscore_fix = _mm256_set1_epi8(33);
    const __m256i pairs = _mm256_set1_epi32(0x01400140);
    const __m256i quads = _mm256_set1_epi32(0x00011000);
    size_t read = 0, written = 0;
    // Two 16-byte stores a step: the second, of the upper lane, starts 12 bytes after the first.
    while (read + 32 <= count && written + 28 <= capacity) {
        const __m256i text = _mm256_loadu_si256((const __m256i *)(input + read));
        const __m256i high = _mm256_and_si256(_mm256_srli_epi32(text, 4), nibble);
        const __m256i low = _mm256_and_si256(text, nibble);
        const __m256i invalid = _mm256_and_si256(_mm256_shuffle_epi8(lut_lo, low), _mm256_shuffle_epi8(lut_hi, high));
        if (!_mm256_testz_si256(invalid, invalid)) break;
        __m256i offset = _mm256_shuffle_epi8(offsets, high);
        offset = _mm256_add_epi8(offset, _mm256_and_si256(_mm256_cmpeq_epi8(text, underscore), underscore_fix));
        const __m256i sixes = _mm256_add_epi8(text, offset);
        const __m256i twelves = _mm256_maddubs_epi16(sixes, pairs);
        const __m256i bytes = _mm256_shuffle_epi8(_mm256_madd_epi16(twelves, quads), pack);
        _mm_storeu_si128((__m128i *)(output + written), _mm256_castsi256_si128(bytes));
        _mm_storeu_si128((__m128i *)(output + written + 12), _mm256_extracti128_si256(bytes, 1));
        read += 32;
        written += 24;
    }
    // A last 16-character block, when one is left and valid.
    return read + decode_ssse3(input + read, count - read, output + written, capacity - written);
}

static int detected_level = -1;

int ll_base64url_vector_level(void) {
    int level = __atomic_load_n(&detected_level, __ATOMIC_RELAXED);
    if (level >= 0) return level;
    __builtin_cpu_init();
    level = __builtin_cpu_supports("avx2") ? 2 : __builtin_cpu_supports("ssse3") ? 1 : 0;
    __atomic_store_n(&detected_level, level, __ATOMIC_RELAXED);
    return level;
}

static size_t decode_with(int level, const uint8_t *input, size_t count, uint8_t *output, size_t capacity) {
    switch (level) {
    case 2: return decode_avx2(input, count, output, capacity);
    case 1: return decode_ssse3(input, count, output, capacity);
    default: return 0;
    }
}

size_t ll_base64url_decode_blocks(const uint8_t *input, size_t input_count, uint8_t *output, size_t output_capacity) {
    return decode_with(ll_base64url_vector_level(), input, input_count, output, output_capacity);
}

size_t ll_base64url_decode_blocks_at_level(int level, const uint8_t *input, size_t input_count, uint8_t *output,
                                           size_t output_capacity) {
    const int supported = ll_base64url_vector_level();
    return decode_with(level < supported ? level : supported, input, input_count, output, output_capacity);
}

#else

// Other CPUs: the Swift caller's scalar decoder does all the work.
int ll_base64url_vector_level(void) { return 0; }

size_t ll_base64url_decode_blocks(const uint8_t *input, size_t input_count, uint8_t *output, size_t output_capacity) {
    (void)input; (void)input_count; (void)output; (void)output_capacity;
    return 0;
}

size_t ll_base64url_decode_blocks_at_level(int level, const uint8_t *input, size_t input_count, uint8_t *output,
                                           size_t output_capacity) {
    (void)level; (void)input; (void)input_count; (void)output; (void)output_capacity;
    return 0;
}

#endif
