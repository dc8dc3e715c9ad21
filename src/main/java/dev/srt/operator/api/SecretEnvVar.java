package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * One environment variable whose value is a Secret's: srt-operator writes it to the run directory's
 * {@code secret.env} (mode 0600) just before the run starts, and the script sources that file, so
 * the value reaches the processes through their environment only, never the spec, the script, a
 * ConfigMap, the status or a command line.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.name.matches('^[A-Za-z_][A-Za-z0-9_]*$')",
    message = "must be an environment variable name: letters, digits and '_', not starting with a digit", fieldPath = ".name")
@ValidationRule(value = "!(self.name in " + SecretEnvVar.RESERVED_CEL_LIST + ") && !self.name.startsWith('LD_') && !self.name.startsWith('SRT_')",
    message = "is reserved: srt-operator or the shell sets it (BASH_ENV, ENV, IFS, PATH, RUN_DIR, LD_*, SRT_*, ...)", fieldPath = ".name")
public class SecretEnvVar {
  // The CEL twin of the reserved names of the Java validator.
  static final String RESERVED_CEL_LIST = "['BASH_ENV', 'ENV', 'IFS', 'PATH', 'RUN_DIR', 'SHELLOPTS', 'BASHOPTS', 'PS4', "
      + "'PROMPT_COMMAND', 'CDPATH', 'GLOBIGNORE', 'BASH_XTRACEFD']";

  /**
   * Name of the environment variable, e.g. HF_TOKEN. Unique among the GpuCluster's and the
   * comparison's secretEnv, and not also set by a plain env map.
   */
  @Required
  @Size(min = 1, max = 128)
  public String name;

  /** The Secret (in the object's own namespace) and key whose value the variable takes. */
  @Required
  public SecretKeyRef secretKeyRef;
}
