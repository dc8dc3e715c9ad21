package dev.srt.operator.host;

/** Small run scripts that speak the events.jsonl protocol, for the backend ITs. */
final class TestScripts {
  private TestScripts() {}

  /** Bash preamble: {@code ev NAME [',"k":"v"...']} appends one event line. */
  static final String PREAMBLE = """
      #!/bin/bash
      ev() { printf '{"ts":"%s","event":"%s"%s}\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "${2:-}" >>events.jsonl; }
      ev run-started ",\\"runId\\":\\"$SRT_RUN_ID\\",\\"host\\":\\"$(hostname)\\""
      printf '%s\\n' "$SRT_RUN_ID" >results/run-id
      """;

  /** Writes events in two bursts a few seconds apart, then succeeds. */
  static String succeeding() {
    return PREAMBLE + """
        ev phase ',"phase":"building"'
        sleep 3
        ev phase ',"phase":"benchmarking"'
        sleep 1
        ev finished ',"status":"succeeded","code":0'
        """;
  }

  static String failing(int code) {
    return PREAMBLE + "ev failed ',\"reason\":\"BenchmarkFailed\"'\nexit " + code + "\n";
  }

  /** Runs until cancelled. */
  static String sleeping() {
    return PREAMBLE + "ev phase ',\"phase\":\"ready\"'\nsleep 300\n";
  }
}
