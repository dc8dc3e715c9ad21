package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class ListenAddressTest {

  @Test
  void byDefaultServersListenOnLoopbackAndNameThemselves127001() {
    for (String value : new String[] {null, "", "loopback"}) {
      ListenAddress listen = ListenAddress.of(value);
      assertThat(listen.bindAddress().isLoopbackAddress()).as(value).isTrue();
      assertThat(listen.host()).as(value).isEqualTo("127.0.0.1");
    }
  }

  @Test
  void onANodeServersListenOnEveryAddressAndNameThemselvesByTheNodesHostname() throws Exception {
    ListenAddress listen = ListenAddress.of("node");
    assertThat(listen.bindAddress().isAnyLocalAddress()).isTrue();
    assertThat(listen.host()).isEqualTo(InetAddress.getLocalHost().getHostAddress());
  }

  @Test
  void aServerNamedByAnotherProcessIsReachedAtThatHostOnlyOnANode() {
    assertThat(ListenAddress.of("node").connectHost("10.213.117.11")).isEqualTo("10.213.117.11");
    assertThat(ListenAddress.of("loopback").connectHost("10.213.117.11"))
        .as("every emulated server of a loopback host listens on 127.0.0.1").isEqualTo("127.0.0.1");
  }

  @Test
  void anotherValueIsRefusedNamingTheVariable() {
    assertThatThrownBy(() -> ListenAddress.of("0.0.0.0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("SRT_EMULATOR_LISTEN must be loopback or node, not '0.0.0.0'");
  }
}
