package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.LinkedHashMap;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.timeLimit) || self.timeLimit.matches('^(([0-9]+-)?[0-9]+(:[0-9]{1,2}){0,2}|UNLIMITED|INFINITE)$')",
    message = "must be a Slurm time such as 02:00:00, 90 or 1-00:00:00", fieldPath = ".timeLimit")
public class SlurmSpec {
  /** Partition (#SBATCH --partition). Default: the cluster's default partition. */
  @Size(max = Limits.MAX_NAME)
  public String partition;

  /** Account (#SBATCH --account). */
  @Size(max = Limits.MAX_NAME)
  public String account;

  /** Time limit (#SBATCH --time), e.g. 02:00:00. Default 01:00:00. */
  @Size(max = Limits.MAX_WORD)
  @Default("01:00:00")
  public String timeLimit;

  /** Extra #SBATCH directives: key -> --key=value; an empty value renders a bare --key. */
  @Size(max = Limits.MAX_ITEMS)
  @ValidationRule(value = Limits.KEYS_BOUNDED, message = Limits.KEYS_BOUNDED_MESSAGE)
  public Map<String, @Size(max = Limits.MAX_TEXT) String> sbatchDirectives = new LinkedHashMap<>();

  /**
   * Extra srun options for every step: key -> --key=value; an empty value renders a bare --key.
   */
  @Size(max = Limits.MAX_ITEMS)
  @ValidationRule(value = Limits.KEYS_BOUNDED, message = Limits.KEYS_BOUNDED_MESSAGE)
  public Map<String, @Size(max = Limits.MAX_TEXT) String> srunOptions = new LinkedHashMap<>();

  /** Emit #SBATCH --gres=gpu:N. Default true; set false on clusters that reject gres. */
  @Default("true")
  public Boolean gres;
}
