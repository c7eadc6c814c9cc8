import type { TeamSummary } from '../../../domain/teams.ts'

/** A team select's options: the choice of no team (`noneLabel`: Personal, All teams…) and the teams. */
export function TeamOptions({ teams, noneLabel }: { teams: TeamSummary[]; noneLabel: string }) {
  return (
    <>
      <option value="">{noneLabel}</option>
      {teams.map((team) => (
        <option key={team.id} value={team.id}>
          {team.name}
        </option>
      ))}
    </>
  )
}
