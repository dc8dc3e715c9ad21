package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;

/** A worker-selection policy catalog crate, linked into Dynamo at build time. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "has(self.git) != has(self.path)", message = "set exactly one of git or path")
@ValidationRule(value = "!has(self.git) || has(self.rev)", message = "git needs an immutable rev (a 40-hex commit)", fieldPath = ".rev")
@ValidationRule(value = "!has(self.rev) || self.rev.matches('^[0-9a-f]{40}$')", message = "must be an immutable rev: a full 40-hex commit", fieldPath = ".rev")
@ValidationRule(value = "!has(self.path) || self.path.startsWith('/')", message = "must be an absolute host path", fieldPath = ".path")
@ValidationRule(value = "!has(self.crateSubdir) || (!self.crateSubdir.startsWith('/') && !self.crateSubdir.contains('..'))",
    message = "must be a relative path inside the repository", fieldPath = ".crateSubdir")
@ValidationRule(value = "!has(self.config) || (!self.config.startsWith('/') && !self.config.contains('..'))",
    message = "must be a relative path inside the crate directory", fieldPath = ".config")
public class PolicyCatalogSpec {
  /** Git URL of the repository holding the catalog crate. */
  @Size(max = Limits.MAX_TEXT)
  public String git;

  /** Absolute host path of a checkout holding the catalog crate (instead of git). */
  @Size(max = Limits.MAX_PATH)
  public String path;

  /** Commit (40 hex) to build; required with git. */
  @Size(max = Limits.COMMIT_LENGTH)
  public String rev;

  /** Directory of the crate inside the repository. Default: the repository root. */
  @Size(max = Limits.MAX_PATH)
  public String crateSubdir;

  /** Cargo package name of the catalog crate. */
  @Required
  @JsonProperty("package")
  @Size(max = Limits.MAX_WORD)
  public String packageName;

  /**
   * Worker-selection YAML inside the crate directory, published next to the wheel and passed as
   * --router-policy-config. Default worker-selection.yaml.
   */
  @Size(max = Limits.MAX_PATH)
  @Default("worker-selection.yaml")
  public String config;

  /** Cargo features of the Dynamo Python bindings to enable. Default [custom-policy]. */
  @Size(max = Limits.MAX_ITEMS)
  public List<@Size(max = Limits.MAX_WORD) String> features = new ArrayList<>();
}
