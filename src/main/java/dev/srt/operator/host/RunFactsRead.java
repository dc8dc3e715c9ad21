package dev.srt.operator.host;

import dev.srt.operator.api.RunFacts;
import dev.srt.operator.results.RunResults;

/** A run's facts alone, read from its run directory by the command that reads its results ({@link ResultsFetch#read}). */
public final class RunFactsRead {
  private RunFactsRead() {}

  /**
   * The facts of run {@code run} under {@code workDir} on the host {@code transport} reaches.
   *
   * @throws HostException only when the host cannot be asked
   */
  public static RunFacts read(Transport transport, String workDir, RunRef run) throws HostException {
    return ResultsFetch.read(transport, run.runDir(workDir), RunResults.RESULTS, null, ResultsFetch.TIMEOUT).facts();
  }
}
