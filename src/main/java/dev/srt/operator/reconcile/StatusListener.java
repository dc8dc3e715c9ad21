package dev.srt.operator.reconcile;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/** Told of every status a reconcile derives (written or not), and of comparisons that are gone. */
interface StatusListener {
  void changed(RouterComparison rc, RouterComparisonStatus old, RouterComparisonStatus next);

  default void removed(ResourceID id) {}
}
