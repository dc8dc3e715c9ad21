package dev.srt.operator.api;

/** Names shared by both kinds: API group, version, category, annotations and the finalizer. */
public final class Api {
  public static final String GROUP = "srt.dev";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String CATEGORY = "srt";
  /** Changing its value starts a new run of every arm. */
  public static final String RERUN_ANNOTATION = GROUP + "/rerun";
  /** {@code "true"}: deleting the comparison leaves jobs on the host running. */
  public static final String ORPHAN_ON_DELETE_ANNOTATION = GROUP + "/orphan-on-delete";
  public static final String FINALIZER = GROUP + "/cancel-jobs";
  /**
   * The label, with the value {@code "true"}, that makes a Secret available to {@code spec.secretEnv}
   * in the operator: its owner's consent that the operator copies its keys to the GPU hosts.
   */
  public static final String SECRET_ENV_LABEL = GROUP + "/secret-env";

  private Api() {}
}
