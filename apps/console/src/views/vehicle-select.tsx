import { useEffect, useState } from 'preact/hooks';
import { Fleet } from '../fleet';
import { VehiclePosition } from '../stream';
import { byName } from './vehicles';

/** The company's vehicles by name, and the one chosen (the first until the user picks another). */
export function useVehicleChoice(fleet: Fleet) {
  const vehicles = fleet.vehicleList().sort((a, b) => byName.compare(a.deviceName ?? '', b.deviceName ?? ''));
  const [vehicleId, setVehicleId] = useState<number | null>(null);
  useEffect(() => {
    if (vehicleId === null && vehicles.length) setVehicleId(vehicles[0].deviceId);
  }, [vehicles.length]);
  return { vehicles, vehicleId, setVehicleId };
}

/** A labelled vehicle picker. */
export function VehicleSelect(props: {
  vehicles: readonly VehiclePosition[];
  value: number | null;
  onChange: (vehicleId: number) => void;
}) {
  return (
    <label>
      Vehicle
      <select
        name="vehicle"
        value={props.value ?? ''}
        onChange={(event) => props.onChange(Number((event.target as HTMLSelectElement).value))}
      >
        {props.vehicles.map((vehicle) => (
          <option key={vehicle.deviceId} value={vehicle.deviceId}>
            {vehicle.deviceName}
          </option>
        ))}
      </select>
    </label>
  );
}
