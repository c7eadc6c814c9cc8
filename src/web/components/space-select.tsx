import { useSearchParams } from 'react-router'
import { Field } from './ui/field.tsx'
import { Select } from './ui/input.tsx'

/** Which space a settings page manages: the user's own (value null) or one of the given teams. */
export function SpaceSelect({
  label,
  personalLabel,
  teamLabel,
  teams,
  value,
  onChange,
}: {
  label: string
  personalLabel: string
  teamLabel: (name: string) => string
  teams: readonly { id: string; name: string }[]
  value: string | null
  onChange: (teamId: string | null) => void
}) {
  return (
    <Field label={label} className="max-w-sm">
      <Select value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">{personalLabel}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {teamLabel(team.name)}
          </option>
        ))}
      </Select>
    </Field>
  )
}

/**
 * The space a settings page manages, kept in the URL (`?team=<id>`) so a link can open a team's
 * keys or webhooks. A team the user does not administer falls back to their own space.
 */
export function useSpaceParam(adminTeams: readonly { id: string }[] | undefined) {
  const [params, setParams] = useSearchParams()
  const requested = params.get('team')
  const teamId =
    requested && (adminTeams === undefined || adminTeams.some((team) => team.id === requested))
      ? requested
      : null
  const setTeamId = (next: string | null) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current)
        if (next) updated.set('team', next)
        else updated.delete('team')
        return updated
      },
      { replace: true },
    )
  return [teamId, setTeamId] as const
}
