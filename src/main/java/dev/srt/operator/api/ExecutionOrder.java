package dev.srt.operator.api;

/** In what order the arms' repetitions run: arm by arm (declared), in a seeded random order (randomized), or one run of each arm per round (interleaved). */
public enum ExecutionOrder implements ApiEnum {
  DECLARED, RANDOMIZED, INTERLEAVED
}
