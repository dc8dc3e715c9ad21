package dev.srt.operator.verdict;

/**
 * 95% intervals of a mean that cannot leave the range the mean lies in. Student's t interval is
 * symmetric, and with two or three wide-spread runs it reaches below a capacity of 0 or a goodput
 * above 100%: a range no mean of those runs can have.
 */
final class BoundedIntervals {
  private BoundedIntervals() {}

  /**
   * The interval of a mean of shares (0 to 1): Student's t intersected with [0, 1]. The mean of
   * shares lies in [0, 1] whatever the runs, so the intersection loses no coverage; those are
   * physical bounds, and the only ones it is clipped to. (A transformed scale would not do: shares
   * of exactly 0 or 1, every request good, are common and have no logit.)
   */
  static Statistics.Interval share(double[] xs) {
    Statistics.Interval t = Statistics.meanInterval(xs);
    return new Statistics.Interval(Math.max(0, t.low()), Math.min(1, t.high()));
  }

  /**
   * The interval of the mean of values strictly inside the bracket (low, high): Student's t on the
   * logit of each value's position in the bracket, logit((x − low) / (high − low)), mapped back. It
   * lies inside the bracket by construction, and is asymmetric as the values' room is. With four
   * runs or fewer it contains every run's value, so their mean; with more, strongly skewed values
   * could put the mean outside it, and it is then widened to the mean (wider is never a claim the
   * runs do not support). Values without spread give the mean itself.
   */
  static Statistics.Interval inBracket(double[] xs, double low, double high) {
    double mean = Statistics.mean(xs);
    double[] logits = new double[xs.length];
    for (int i = 0; i < xs.length; i++) {
      double position = (xs[i] - low) / (high - low);
      if (!(position > 0 && position < 1)) {
        throw new IllegalArgumentException(xs[i] + " is not inside (" + low + ", " + high + ")");
      }
      logits[i] = Math.log(position / (1 - position));
    }
    if (!Statistics.hasSpread(xs)) {
      return new Statistics.Interval(mean, mean);
    }
    Statistics.Interval t = Statistics.meanInterval(logits);
    double from = low + (high - low) * logistic(t.low());
    double to = low + (high - low) * logistic(t.high());
    return new Statistics.Interval(Math.min(from, mean), Math.max(to, mean));
  }

  private static double logistic(double x) {
    return 1 / (1 + Math.exp(-x));
  }
}
