package dev.srt.operator.results;

import dev.srt.operator.api.SloSpec;

/**
 * What the benchmark tools, the scrapes and the facts program write, shared by the tests of the
 * readers here and of the one command that fetches the files from a host (host/ForgedResultsTest).
 */
public final class ResultFixtures {
  private ResultFixtures() {}

  /**
   * Four requests, times in seconds: 100 ms TTFT with gaps of 10, 20, 30 ms over 4 tokens; 300 ms
   * with 50, 50 over 3; 200 ms with one token; one that failed. No summary keys but the duration.
   */
  public static final String DETAILS = """
      {"duration": 2.0, "completed": 3,
       "input_lens": [10, 10, 10, 10], "output_lens": [4, 3, 1, 0],
       "ttfts": [0.1, 0.3, 0.2, 0.0], "itls": [[0.01, 0.02, 0.03], [0.05, 0.05], [], []],
       "generated_texts": ["a b c d", "a b c", "a", ""], "errors": ["", "", "", "Service Unavailable"]}
      """;

  /** An SLO with these thresholds (null: not set). */
  public static SloSpec slo(Double ttft, Double itl, Double tpot, Double e2e) {
    SloSpec s = new SloSpec();
    s.ttftMs = ttft;
    s.itlMs = itl;
    s.tpotMs = tpot;
    s.e2eMs = e2e;
    return s;
  }

  /** Two workers' SGLang counters and the router's, as srt_scrape writes them (full /metrics pages). */
  public static String scrape(long prompt0, long cached0, long requests0, long prompt1, long cached1, long requests1) {
    return """
        # srt-scrape http://127.0.0.1:8000/metrics
        # TYPE sgl_router_requests_total counter
        sgl_router_requests_total 900
        # srt-scrape http://127.0.0.1:6100/metrics
        # HELP sglang:prompt_tokens_total Number of prefill tokens processed.
        # TYPE sglang:prompt_tokens_total counter
        sglang:prompt_tokens_total{model_name="m"} %d.0
        sglang:cached_tokens_total{cache_source="device",model_name="m"} %d.0
        sglang:cached_tokens_total{cache_source="host",model_name="m"} 777.0
        sglang:num_requests_total{model_name="m"} %d.0
        sglang:time_to_first_token_seconds_bucket{le="0.1",model_name="m"} 3.0
        # srt-scrape http://127.0.0.1:6132/metrics
        sglang:prompt_tokens_total{model_name="m"} %d.0
        sglang:cached_tokens_total{model_name="m"} %d.0
        sglang:num_requests_total{model_name="m"} %d.0
        # srt-scrape http://127.0.0.1:6164/metrics failed: <urlopen error [Errno 111] Connection refused>
        """.formatted(prompt0, cached0, requests0, prompt1, cached1, requests1);
  }

  /** A facts.json as the run's facts program writes it: seven facts, one unknown. */
  public static final String FACTS = """
      {"schema": 1, "capturedAt": "2026-12-03T07:16:50Z", "facts": [
       {"name": "node 0 host", "value": "gpu-01"},
       {"name": "node 0 GPU driver", "value": "570.86.15"},
       {"name": "node 0 CUDA version", "unknown": "nvidia-smi names no CUDA version"},
       {"name": "engine worker-0 server_args.tp_size", "value": "4"},
       {"name": "engine worker-0 server_args.grpc_port", "value": "50051"},
       {"name": "router binary sha256", "value": "907d092a8559eda2e8d11e0cddf68e796ed4f3158b0caac0466945533499356f"},
       {"name": "model tokenizer.json sha256", "value": "133920206d421b4d742e41638e5bd34af27f4addd4cca635a45a194f03647054"}]}
      """;
}
