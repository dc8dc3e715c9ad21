package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmReason;

/**
 * Why srt-operator cancels an arm's run, in the words of its status ({@code reason}) and its
 * {@code Cancelled} event ({@code why}). Kept with the cancel until its outcome is applied: the
 * reason may be gone by then (a rerun is handled by the reconcile that asks for the cancel), and
 * the run still ended because of it.
 */
record CancelReason(ArmReason reason, String why) {}
