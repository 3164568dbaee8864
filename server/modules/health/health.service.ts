import type { AppDeps } from '../../core/deps.ts';

export class HealthService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }
}
