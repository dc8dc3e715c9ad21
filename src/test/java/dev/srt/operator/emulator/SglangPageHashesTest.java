package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SglangPageHashesTest {
  private static final int[] ONE_TO_32 = IntStream.rangeClosed(1, 32).toArray();

  /**
   * The expected values come from Python, not from this code: {@code d = sha256(prior +
   * struct.pack('<16I', *page)).digest(); int.from_bytes(d[:8], 'big', signed=True)} over the pages
   * of 1..32, the second page's prior being the first page's digest (sglang 0.5.21's hash_binding.cpp).
   */
  @Test
  void hashesEachPageOverTheParentDigestAndLittleEndianTokenIds() {
    assertThat(SglangPageHashes.chain(ONE_TO_32, 16)).containsExactly(8635429971592222890L, 1256577331724852459L);
  }

  @Test
  void aPartialTrailingPageIsNotHashedAndASharedPrefixSharesItsHashes() {
    int[] longer = IntStream.rangeClosed(1, 40).toArray();
    assertThat(SglangPageHashes.chain(longer, 16)).containsExactly(SglangPageHashes.chain(ONE_TO_32, 16));
    int[] divergent = Arrays.copyOf(ONE_TO_32, 32);
    divergent[20] = 7;
    long[] a = SglangPageHashes.chain(ONE_TO_32, 16);
    long[] b = SglangPageHashes.chain(divergent, 16);
    assertThat(b[0]).isEqualTo(a[0]);
    assertThat(b[1]).isNotEqualTo(a[1]);
  }

  @Test
  void refusesAPageSizeBelowOne() {
    assertThatThrownBy(() -> SglangPageHashes.chain(ONE_TO_32, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
