package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.LinkedHashMap;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.timeLimit) || self.timeLimit.matches('^(([0-9]+-)?[0-9]+(:[0-9]{1,2}){0,2}|UNLIMITED|INFINITE)$')",
    message = "must be a Slurm time such as 02:00:00, 90 or 1-00:00:00", fieldPath = ".timeLimit")
public class SlurmSpec {
  @JsonPropertyDescription("Partition (#SBATCH --partition). Default: the cluster's default partition.")
  public String partition;

  @JsonPropertyDescription("Account (#SBATCH --account).")
  public String account;

  @JsonPropertyDescription("Time limit (#SBATCH --time), e.g. 02:00:00. Default 01:00:00.")
  public String timeLimit;

  @JsonPropertyDescription("Extra #SBATCH directives: key -> --key=value; an empty value renders a bare --key.")
  public Map<String, String> sbatchDirectives = new LinkedHashMap<>();

  @JsonPropertyDescription("Extra srun options for every step: key -> --key=value; an empty value renders a bare --key.")
  public Map<String, String> srunOptions = new LinkedHashMap<>();

  @JsonPropertyDescription("Emit #SBATCH --gres=gpu:N. Default true; set false on clusters that reject gres.")
  public Boolean gres;
}
